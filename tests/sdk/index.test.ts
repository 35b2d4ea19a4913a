/**
 * What a Pulumi program sees: the four classes from the package's main entry, declared under
 * `pulumi.runtime.setMocks`, register the `adplatform` dynamic types with their inputs, and expose
 * every input and API field as a typed `Output` (declared, not initialised, so the values the
 * engine resolves are not overwritten by class-field initialisers).
 */
import * as pulumi from "@pulumi/pulumi";
import { recordRegistrations } from "../helpers/recordingMocks";

const registered = recordRegistrations("lifecycle", (args) => {
  // What the engine would return: the checked inputs plus the API's fields.
  const api = args.type.endsWith(":CampaignGroup") ? { companyId: "7001", size: 2, createTime: "2024-05-01 09:00:00" } : {};
  const id = (args.inputs.bidModifierId as string | undefined) ?? `${args.name}-id`;
  return { id, state: { ...args.inputs, ...api } };
});

// Loaded after the mocks are set, as a program's resources are created after the runtime is ready:
// an import statement would be hoisted above setMocks.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require("../../sdk") as typeof import("../../sdk");

const value = <T>(output: pulumi.Output<T>): Promise<T> => new Promise((resolve) => output.apply(resolve));

it("declares all four resources with their URN types and typed outputs", async () => {
  const strategy = new sdk.BidStrategy("night", { name: "Night", strategy: "exact", value: "0.40", maxValue: 1 });
  const group = new sdk.CampaignGroup("spring", { name: "Spring", color: "#22aa44", items: ["5101", "5102"] });
  const modifier = new sdk.BidModifier("dach", {
    bidModifierId: "501",
    value: 1.25,
    targeting: { countries: { items: ["DE"], op: "in" } },
  });
  const variation = new sdk.AbTestVariation("hero", {
    abTestId: "301",
    variationId: "2",
    settings: { image: { en: "https://x.example/a.png" } },
  });

  expect(await value(strategy.urn)).toBe("urn:pulumi:test::lifecycle::pulumi-nodejs:dynamic/adplatform:BidStrategy::night");
  expect(await value(group.urn)).toMatch(/pulumi-nodejs:dynamic\/adplatform:CampaignGroup::spring$/);
  expect(await value(modifier.urn)).toMatch(/pulumi-nodejs:dynamic\/adplatform:BidModifier::dach$/);
  expect(await value(variation.urn)).toMatch(/pulumi-nodejs:dynamic\/adplatform:AbTestVariation::hero$/);

  expect(await value(strategy.name)).toBe("Night");
  expect(await value(strategy.maxValue)).toBe(1);
  expect(await value(group.companyId)).toBe("7001");
  expect(await value(group.size)).toBe(2);
  expect(await value(group.createTime)).toBe("2024-05-01 09:00:00");
  expect(await value(group.items)).toEqual(["5101", "5102"]);
  expect(await value(modifier.id)).toBe("501");
  expect(await value(modifier.targeting)).toEqual({ countries: { items: ["DE"], op: "in" } });
  expect(await value(variation.settings)).toEqual({ image: { en: "https://x.example/a.png" } });

  const inputsOf = (type: string) => registered.find((r) => r.type.endsWith(type))!.inputs;
  expect(Object.keys(inputsOf(":BidStrategy")).sort()).toEqual(["__adplatformUrn", "__provider", "maxValue", "name", "strategy", "value"]);
  // The hidden identity input of the create journal is the resource's own URN.
  expect(inputsOf(":BidStrategy").__adplatformUrn).toBe(await value(strategy.urn));
  expect(inputsOf(":CampaignGroup").__adplatformUrn).toBe(await value(group.urn));
  expect(inputsOf(":CampaignGroup").__provider).toEqual(expect.stringContaining('require("pulumi-adplatform/provider")'));
});
