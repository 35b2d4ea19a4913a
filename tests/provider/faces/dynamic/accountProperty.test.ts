/**
 * The dynamic face's `account` property through the real dynamic-provider plugin, against one
 * simulator with two accounts: a resource naming an account is created, read, updated and deleted
 * in that account (the state's copy reaching `read` and `delete`), an unusable account is refused
 * at check without a request, another account replaces while the same one never does (a stack
 * without accounts sees no diff), and one account paused by the platform does not hold back the
 * other's requests.
 */
import { SEED_IDS } from "../../../../simulator";
import { lifecycleSuite, RECOGNISABLE_TOKEN } from "../../../helpers/lifecycleEnv";
import type { Props } from "../../../helpers/dynamicProviderHarness";
import { waitFor } from "../../../helpers/waitFor";

// Child processes (serializer, plugin) start slowly on a loaded machine: generous, never asserted.
jest.setTimeout(90_000);

/** The second account's token: as recognisable as the first, and never in a message either. */
const SECOND_TOKEN = "tok-SECOND-2b8e41d0-never-in-state";
const OP_PATCH = 1;
const OP_CREATE_GROUP = 2;
const OP_CREATE_STRATEGY = 3;
const OP_VIEW_GROUP = 19;

const { env, urn, news } = lifecycleSuite("CampaignGroup", "brand", {
  simulator: {
    accounts: [
      { account: "demo", token: RECOGNISABLE_TOKEN, companyId: "7001" },
      { account: "second", token: SECOND_TOKEN, companyId: "7002" },
    ],
  },
});

const second = (): Props => ({ baseUrl: env.sim.url, token: SECOND_TOKEN });
/** The second account at another spelling of the simulator's address: another platform, as far as the provider can tell. */
const elsewhere = (): Props => ({ baseUrl: env.sim.url.replace("127.0.0.1", "localhost"), token: SECOND_TOKEN });
/** The configured account (stack config of the suite), written as an explicit account. */
const demo = (): Props => ({ baseUrl: env.sim.url, token: RECOGNISABLE_TOKEN });
const group = { name: "Brand B launch", color: "#3366ff", items: ["5101"] };
const calls = (account: string, op: number) => env.sim.requests(account).operations[String(op)]?.calls ?? [];

async function checkedGroup(props: Props): Promise<Props> {
  const result = await env.plugin.check(urn(), {}, news(props));
  expect(result.failures).toEqual([]);
  return result.inputs;
}

it("creates in the named account, keeps the account in the outputs and refreshes from it", async () => {
  const created = await env.plugin.create(urn(), await checkedGroup({ ...group, account: second() }));
  expect(created.properties).toMatchObject({ ...group, account: second(), companyId: "7002" });
  expect(env.sim.state("second").campaignGroups.map((g) => g.id)).toContain(created.id);
  expect(env.sim.state("demo").campaignGroups.map((g) => g.id)).not.toContain(created.id);
  expect(calls("demo", OP_CREATE_GROUP)).toHaveLength(0);

  // Refresh gets only the state: the account in it decides where the GET goes.
  const read = await env.plugin.read(created.id, urn(), created.properties);
  expect(read.id).toBe(created.id);
  expect(read.properties).toMatchObject({ account: second(), size: 1 });
  expect(read.inputs).toMatchObject({ account: second() });
  expect(calls("second", OP_VIEW_GROUP)).toHaveLength(1);
  expect(calls("demo", OP_VIEW_GROUP)).toHaveLength(0);
});

it("refuses an account without a token or with a plain-http remote base URL at check, naming the property, sending nothing", async () => {
  const noToken = await env.plugin.check(urn(), {}, news({ ...group, account: { baseUrl: env.sim.url } }));
  expect(noToken.failures).toEqual([{ property: "account.token", reason: expect.stringMatching(/^is required/) }]);
  const plainHttp = await env.plugin.check(
    urn(),
    {},
    news({ ...group, account: { baseUrl: "http://api.example.com", token: SECOND_TOKEN } }),
  );
  expect(plainHttp.failures).toEqual([{ property: "account.baseUrl", reason: expect.stringMatching(/use https:\/\//) }]);
  const ftp = await env.plugin.check(urn(), {}, news({ ...group, account: { baseUrl: "ftp://api.example.com", token: SECOND_TOKEN } }));
  expect(ftp.failures).toEqual([{ property: "account.baseUrl", reason: expect.stringMatching(/must use https:\/\//) }]);
  expect(JSON.stringify([noToken.failures, plainHttp.failures, ftp.failures])).not.toContain(SECOND_TOKEN);
  expect(env.sim.requests("demo").total + env.sim.requests("second").total).toBe(0);
});

it("refuses an account's rateLimitShare that is not a fraction above 0 and at most 1 at check, naming the property", async () => {
  for (const bad of [0, 1.5, -1, "half"]) {
    const result = await env.plugin.check(urn(), {}, news({ ...group, account: { ...second(), rateLimitShare: bad } }));
    expect(result.failures).toEqual([{ property: "account.rateLimitShare", reason: expect.stringMatching(/above 0 and at most 1/) }]);
  }
  expect((await env.plugin.check(urn(), {}, news({ ...group, account: { ...second(), rateLimitShare: 0.5 } }))).failures).toEqual([]);
  expect(env.sim.requests("demo").total + env.sim.requests("second").total).toBe(0);
});

it("passes an account unknown during preview through check", async () => {
  const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
  const result = await env.plugin.check(urn(), {}, news({ ...group, account: { baseUrl: unknown, token: unknown } }));
  expect(result.failures).toEqual([]);
});

it("diffs: no account on either side is unchanged, another base URL replaces, another token never does", async () => {
  const plain = (await env.plugin.create(urn(), await checkedGroup(group))).properties;
  const none = { changes: "none", replaces: [], deleteBeforeReplace: false };
  const update = { ...none, changes: "some" };
  const replace = { changes: "some", replaces: ["account"], deleteBeforeReplace: false };
  expect(await env.plugin.diff("1", urn(), plain, news(group))).toEqual(none);

  // The configured account written explicitly: recorded by an update, never a replace.
  expect(await env.plugin.diff("1", urn(), plain, news({ ...group, account: demo() }))).toEqual(update);
  // Another token on the same base URL: a credential, not an identity, so an update that records it.
  expect(await env.plugin.diff("1", urn(), plain, news({ ...group, account: second() }))).toEqual(update);
  // Another base URL: another platform, so the object cannot move and is replaced.
  expect(await env.plugin.diff("1", urn(), plain, news({ ...group, account: elsewhere() }))).toEqual(replace);

  const inSecond = (await env.plugin.create(urn(), await checkedGroup({ ...group, account: second() }))).properties;
  expect(await env.plugin.diff("1", urn(), inSecond, news({ ...group, account: second() }))).toEqual(none);
  // A trailing slash is another spelling of the same base URL, and the same account.
  expect(await env.plugin.diff("1", urn(), inSecond, news({ ...group, account: { ...second(), baseUrl: `${env.sim.url}/` } }))).toEqual(
    update,
  );
  // Back to the configured account on the same base URL: the same account, another token.
  expect(await env.plugin.diff("1", urn(), inSecond, news(group))).toEqual(update);
  // A kind's own replacing field still replaces alongside.
  expect(await env.plugin.diff("1", urn(), inSecond, news({ ...group, name: "Renamed", account: elsewhere() }))).toMatchObject({
    replaces: ["name", "account"],
  });
});

it("compares named accounts by base URL and name, so a rotated token is an update, not a replace", async () => {
  const named = { ...second(), name: "brand-b" };
  const state = (await env.plugin.create(urn(), await checkedGroup({ ...group, account: named }))).properties;
  const rotated = { ...named, token: RECOGNISABLE_TOKEN };
  expect(await env.plugin.diff("1", urn(), state, news({ ...group, account: rotated }))).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(await env.plugin.diff("1", urn(), state, news({ ...group, account: { ...named, name: "brand-c" } }))).toMatchObject({
    replaces: ["account"],
  });
  expect(await env.plugin.diff("1", urn(), state, news({ ...group, account: { ...named, baseUrl: elsewhere().baseUrl } }))).toMatchObject({
    replaces: ["account"],
  });
  // Naming the account later keeps it the same account.
  const unnamed = (await env.plugin.create(urn(), await checkedGroup({ ...group, account: second() }))).properties;
  expect(await env.plugin.diff("1", urn(), unnamed, news({ ...group, account: named }))).toMatchObject({ replaces: [] });
});

it("says in the preview which identifying field replaces the resource, or that only the token changed, never a value", async () => {
  const state = (await env.plugin.create(urn(), await checkedGroup({ ...group, account: { ...second(), name: "brand-b" } }))).properties;
  const identified = (props: Props) => news({ ...props, __adplatformUrn: urn() });
  await env.plugin.diff("1", urn(), state, identified({ ...group, account: { ...elsewhere(), name: "brand-c" } }));
  await env.plugin.diff("1", urn(), state, identified({ ...group, account: { ...second(), token: RECOGNISABLE_TOKEN, name: "brand-b" } }));
  const infos = env.engine.logs.filter((log) => log.severity === "info").map((log) => log.message);
  expect(infos).toEqual([
    expect.stringMatching(
      /^resource 'brand': its account's base URL \(`account.baseUrl`\) and name \(`account.name`\) changed, so .* replaced/,
    ),
    expect.stringMatching(/^resource 'brand': only its account's token changed; .* an update that records the new token/),
  ]);
  expect(JSON.stringify(env.engine.logs)).not.toMatch(new RegExp(`${SECOND_TOKEN}|${RECOGNISABLE_TOKEN}|brand-c|localhost`));
});

it("fails a refresh whose token answers for another company than the group's, naming both, and keeps the state", async () => {
  // Group 701 is seeded in both accounts: a token of the demo account sees demo's 701, of company 7001.
  const state = {
    name: "Summer sale",
    color: "#ff8800",
    items: ["5101"],
    companyId: "7002",
    account: { ...second(), token: RECOGNISABLE_TOKEN },
  };
  const read = env.plugin.read("701", urn(), news(state));
  await expect(read).rejects.toThrow(/token belongs to company 7001, but the group belongs to company 7002/);
  await expect(read).rejects.not.toThrow(new RegExp(RECOGNISABLE_TOKEN));
});

it("updates only the account's record without calling the kind when its own fields are unchanged", async () => {
  const state = (await env.plugin.create(urn(), await checkedGroup(group))).properties;
  const before = env.sim.requests("demo").total;
  const updated = await env.plugin.update("1", urn(), state, news(await checkedGroup({ ...group, account: demo() })));
  expect(updated.properties).toMatchObject({ ...group, account: demo() });
  expect(env.sim.requests("demo").total).toBe(before);
});

describe("other kinds", () => {
  const modifierUrn = () => env.urn("BidModifier", "brand-b-uplift");
  const strategyUrn = (n: number) => env.urn("BidStrategy", `brand-b-${n}`);
  const modifier = { bidModifierId: SEED_IDS.bidModifiers.countries, name: "Brand B uplift", value: 1.2 };

  it("PATCHes a bid modifier of the named account on create and update, and deletes it from the state", async () => {
    const checked = await env.plugin.check(modifierUrn(), {}, env.inputs("BidModifier", { ...modifier, account: second() }));
    expect(checked.failures).toEqual([]);
    const created = await env.plugin.create(modifierUrn(), checked.inputs);
    const next = await env.plugin.check(modifierUrn(), {}, env.inputs("BidModifier", { ...modifier, value: 1.3, account: second() }));
    const updated = await env.plugin.update(created.id, modifierUrn(), created.properties, next.inputs);
    expect(updated.properties).toMatchObject({ value: "1.3", account: second() });
    expect(calls("second", OP_PATCH).map((c) => c.body)).toEqual([{ name: "Brand B uplift", value: "1.2" }, { value: "1.3" }]);
    expect(calls("demo", OP_PATCH)).toHaveLength(0);
    expect(env.sim.state("second").bidModifiers.find((m) => m.id === modifier.bidModifierId)).toMatchObject({ value: "1.3" });

    await env.plugin.delete(created.id, modifierUrn(), updated.properties);
    expect(env.engine.warnings().join("\n")).not.toContain(SECOND_TOKEN);
  });

  it("warns about a removed field as often when the account is recorded anew as when it is not", async () => {
    const warningsOf = async (account: Props | undefined) => {
      const created = await env.plugin.create(modifierUrn(), env.inputs("BidModifier", { ...modifier, value: "1.2" }));
      env.engine.clear();
      const next = (
        await env.plugin.check(
          modifierUrn(),
          {},
          env.inputs("BidModifier", { bidModifierId: modifier.bidModifierId, value: 1.5, ...(account ? { account } : {}) }),
        )
      ).inputs;
      expect(await env.plugin.diff(created.id, modifierUrn(), created.properties, next)).toMatchObject({ changes: "some", replaces: [] });
      await env.plugin.update(created.id, modifierUrn(), created.properties, next);
      return env.engine.warnings();
    };
    const plain = await warningsOf(undefined);
    expect(plain).toEqual([expect.stringMatching(/name/)]);
    expect(await warningsOf(demo())).toEqual(plain);
    expect(calls("demo", OP_PATCH).map((c) => c.body)).toEqual([
      { name: "Brand B uplift", value: "1.2" },
      { value: "1.5" },
      { name: "Brand B uplift", value: "1.2" },
      { value: "1.5" },
    ]);
  });

  it("writes to one account while the other's requests are all held in flight: each account has its own limiter", async () => {
    const strategy = (n: number, account?: Props) =>
      env.inputs("BidStrategy", {
        name: `Brand ${n}`,
        pricingModel: "cpc",
        strategy: "exact",
        value: 0.5,
        maxValue: 1,
        ...(account ? { account } : {}),
      });
    // The demo account's requests wait at the simulator's gate once admitted: four of them fill the
    // client's in-flight cap for that account (it starts at 4).
    env.sim.setFaults({ hold: true, holdAccount: "demo" });
    const held = Array.from({ length: 4 }, (_, n) => env.plugin.create(strategyUrn(n), strategy(n)));
    await waitFor(() => env.sim.windows("demo").inFlight.current === 4);

    // A limiter shared between the accounts would queue these behind the held four until released.
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, n) => env.plugin.create(strategyUrn(10 + n), strategy(10 + n, second()))),
    );
    expect(new Set(created.map((c) => c.id)).size).toBe(10);
    expect(calls("second", OP_CREATE_STRATEGY).map((c) => c.status)).toEqual(Array(10).fill(201));
    expect(env.sim.windows("second").classes.C?.rejected).toBe(0);
    expect(calls("demo", OP_CREATE_STRATEGY)).toHaveLength(0);

    env.sim.setFaults({ hold: false });
    await Promise.all(held);
    expect(env.sim.state("demo").bidStrategies.filter((s) => s.name?.toString().startsWith("Brand "))).toHaveLength(4);
    expect(env.sim.state("second").bidStrategies.filter((s) => s.name?.toString().startsWith("Brand "))).toHaveLength(10);
  });
});
