/**
 * `Account` and the `account` argument of the resources, in a Pulumi program under
 * `pulumi.runtime.setMocks`: the token is a secret whatever it was given as, a resource with an
 * account registers it as an input (secret as a whole, since it holds the token) and marks it an additional secret output, and a resource
 * without one registers exactly the inputs it did before accounts existed.
 */
import * as pulumi from "@pulumi/pulumi";
import { recordRegistrations } from "../helpers/recordingMocks";

const registered = recordRegistrations("accounts");

// Loaded after the mocks are set (an import statement would be hoisted above setMocks).
/* eslint-disable @typescript-eslint/no-require-imports */
const sdk = require("../../sdk") as typeof import("../../sdk");
const { accountOptions } = require("../../sdk/resources/accountInput") as typeof import("../../sdk/resources/accountInput");
/* eslint-enable @typescript-eslint/no-require-imports */

/** How the runtime serializes a secret value: the whole account is secret, since its token is. */
const secretOf = (v: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: v });
const value = <T>(output: pulumi.Output<T>): Promise<T> => new Promise((resolve) => output.apply(resolve));
const strategyArgs = { name: "Night", strategy: "exact" as const, value: "0.40", maxValue: 1 };

it("keeps the token a secret and the base URL and name plain", async () => {
  const account = new sdk.Account({ baseUrl: "https://brand-b.example", token: "tok-b", name: "brand-b" });
  expect(await pulumi.isSecret(account.token)).toBe(true);
  expect(await pulumi.isSecret(account.baseUrl)).toBe(false);
  expect(await value(account.name!)).toBe("brand-b");
  expect(sdk.Account.isInstance(account)).toBe(true);
  expect(sdk.Account.isInstance({ baseUrl: "x", token: "y" })).toBe(false);
});

it("registers a resource's account as an input and adds it to the additional secret outputs", async () => {
  const account = new sdk.Account({ baseUrl: "https://brand-b.example", token: "tok-b" });
  const strategy = new sdk.BidStrategy("with-account", { ...strategyArgs, account });
  await value(strategy.urn);
  const inputs = registered.find((r) => r.name === "with-account")!.inputs;
  expect(inputs.account).toEqual(secretOf({ baseUrl: "https://brand-b.example", token: "tok-b" }));
  expect(accountOptions(account, { additionalSecretOutputs: ["name"], protect: true })).toEqual({
    additionalSecretOutputs: ["name", "account"],
    protect: true,
  });
  expect(accountOptions(account, undefined)).toEqual({ additionalSecretOutputs: ["account"] });
});

it("wraps a plain { baseUrl, token } object (JavaScript programs) into an Account", async () => {
  const plain = { baseUrl: "https://brand-c.example", token: "tok-c" } as unknown as InstanceType<typeof sdk.Account>;
  const group = new sdk.CampaignGroup("plain-account", { name: "G", color: "#000000", items: ["1"], account: plain });
  await value(group.urn);
  expect(registered.find((r) => r.name === "plain-account")!.inputs.account).toEqual(
    secretOf({ baseUrl: "https://brand-c.example", token: "tok-c" }),
  );
});

it("registers no account input and no extra option for a resource without one", async () => {
  const strategy = new sdk.BidStrategy("no-account", strategyArgs);
  await value(strategy.urn);
  const inputs = registered.find((r) => r.name === "no-account")!.inputs;
  // `__adplatformUrn` is the create journal's identity input, which every resource carries.
  expect(Object.keys(inputs).sort()).toEqual(["__adplatformUrn", "__provider", "maxValue", "name", "strategy", "value"]);
  expect(accountOptions(undefined, { protect: true })).toEqual({ protect: true });
});
