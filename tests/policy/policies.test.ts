/**
 * The pack's policies as Pulumi calls them: each resource rule applies to its kind on both faces
 * (`pulumi-nodejs:dynamic/adplatform:<Kind>` and `adplatform:index:<Kind>`) and to nothing else,
 * reads its settings from the pack's configuration, and the stack rule reads the configured
 * account from the stack configuration the language host passes as PULUMI_CONFIG.
 */
import type { ResourceValidationArgs, ResourceValidationPolicy, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { POLICIES, configuredBaseUrl } from "../../policy/policies";
import { kindOfType } from "../../policy/resources";

function policy<P>(name: string): P {
  const found = POLICIES.find((p) => p.name === name);
  if (!found) throw new Error(`no policy ${name}`);
  return found as P;
}

/** What `validateResource` reports for one resource of `type`, with `config` as the pack's configuration for it. */
async function validate(name: string, type: string, props: Record<string, unknown>, config: object = {}): Promise<string[]> {
  const reported: string[] = [];
  const args = {
    type,
    name: "r",
    urn: `urn:pulumi:dev::p::${type}::r`,
    props,
    getConfig: () => config,
  } as unknown as ResourceValidationArgs;
  const validation = policy<ResourceValidationPolicy>(name).validateResource;
  for (const v of Array.isArray(validation) ? validation : [validation!]) await v(args, (message) => reported.push(message));
  return reported;
}

describe.each(["pulumi-nodejs:dynamic/adplatform:BidStrategy", "adplatform:index:BidStrategy"])("a BidStrategy as %s", (type) => {
  it("is checked by bid-strategy-bounds, with the configured limit", async () => {
    const props = { strategy: "percent_add", value: 400, maxValue: 3 };
    expect(await validate("bid-strategy-bounds", type, props)).toEqual([
      expect.stringContaining('BidStrategy "r": value 400 is above 100'),
    ]);
    expect(await validate("bid-strategy-bounds", type, props, { maxPercentAdd: 500 })).toEqual([]);
  });
});

it("a rule leaves other kinds and other packages' resources alone", async () => {
  const props = { strategy: "percent_add", value: 400, maxValue: 3 };
  expect(await validate("bid-strategy-bounds", "adplatform:index:BidModifier", props)).toEqual([]);
  expect(await validate("bid-strategy-bounds", "pulumi-nodejs:dynamic:Resource", props)).toEqual([]);
  expect(await validate("bid-strategy-bounds", "other:index:BidStrategy", props)).toEqual([]);
});

it("kindOfType knows both faces' tokens of the four kinds, and nothing else", () => {
  for (const kind of ["BidModifier", "CampaignGroup", "BidStrategy", "AbTestVariation"]) {
    expect(kindOfType(`pulumi-nodejs:dynamic/adplatform:${kind}`)).toBe(kind);
    expect(kindOfType(`adplatform:index:${kind}`)).toBe(kind);
  }
  expect(kindOfType("pulumi-nodejs:dynamic/adplatform:Zone")).toBeUndefined();
  expect(kindOfType("pulumi:providers:adplatform")).toBeUndefined();
});

it("every policy has a default enforcement level, and only the tags rule is advisory", () => {
  expect(Object.fromEntries(POLICIES.map((p) => [p.name, p.enforcementLevel]))).toEqual({
    "bid-strategy-bounds": "mandatory",
    "bid-modifier-bounds": "mandatory",
    "bid-modifier-deprecated-tags": "advisory",
    "targeting-country-codes": "mandatory",
    "targeting-empty-in": "mandatory",
    "ab-variation-https-images": "mandatory",
    "account-create-cap": "mandatory",
  });
});

describe("account-create-cap", () => {
  it("counts both faces' creating resources on the stack's configured account", async () => {
    const resources = [
      { type: "pulumi-nodejs:dynamic/adplatform:BidStrategy", name: "a", props: {} },
      {
        type: "adplatform:index:CampaignGroup",
        name: "b",
        props: {},
        provider: { type: "pulumi:providers:adplatform", name: "default", props: {} },
      },
      { type: "pulumi:pulumi:Stack", name: "dev", props: {} },
    ];
    const reported: string[] = [];
    const args = { resources, getConfig: () => ({ maxCreates: 1 }) } as unknown as StackValidationArgs;
    const saved = process.env.PULUMI_CONFIG;
    process.env.PULUMI_CONFIG = JSON.stringify({ "adplatform:baseUrl": "https://api.example.com", "adplatform:token": "secret-token" });
    try {
      await policy<StackValidationPolicy>("account-create-cap").validateStack(args, (message) => reported.push(message));
    } finally {
      if (saved === undefined) delete process.env.PULUMI_CONFIG;
      else process.env.PULUMI_CONFIG = saved;
    }
    expect(reported).toEqual([expect.stringMatching(/^https:\/\/api\.example\.com: the stack creates 2 objects, above the cap of 1/)]);
  });

  it("takes the base URL from the stack config, else from ADPLATFORM_BASE_URL", () => {
    expect(
      configuredBaseUrl({ PULUMI_CONFIG: '{"adplatform:baseUrl":"https://a.example.com"}', ADPLATFORM_BASE_URL: "https://b.example.com" }),
    ).toBe("https://a.example.com");
    expect(configuredBaseUrl({ PULUMI_CONFIG: "{}", ADPLATFORM_BASE_URL: "https://b.example.com" })).toBe("https://b.example.com");
    expect(configuredBaseUrl({ PULUMI_CONFIG: "not json" })).toBeUndefined();
  });
});
