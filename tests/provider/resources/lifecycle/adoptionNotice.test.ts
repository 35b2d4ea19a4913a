/**
 * A create that takes an existing object over says so before it happens: `check` of a resource the
 * state does not hold yet (no old inputs) sends one info message naming the object's id, through
 * the real dynamic-provider plugin to the fake engine, for `adoptId` (groups, strategies) and for
 * the ids a modifier or variation always adopts; nothing for a new object, for a resource already
 * in the state, for an id unknown in a preview, or for inputs that fail. No API call is made.
 */
import { SEED_IDS } from "../../../../simulator";
import { UNKNOWN_VALUE } from "../../../../provider/resources/inputs/unknowns";
import type { Kind, Props } from "../../../helpers/dynamicProviderHarness";
import { lifecycleSuite } from "../../../helpers/lifecycleEnv";

jest.setTimeout(60_000);

const { env } = lifecycleSuite("BidModifier", "dach");

/** The info messages the engine received for one `check` of `kind` with `olds` and `news`. */
async function noticesOfCheck(kind: Kind, news: Props, olds: Props = {}): Promise<string[]> {
  const result = await env.plugin.check(env.urn(kind, "x"), olds, env.inputs(kind, news));
  expect(result.failures).toEqual([]);
  return env.engine.logs.filter((log) => log.severity === "info").map((log) => log.message);
}

const MODIFIER = SEED_IDS.bidModifiers.countries; // "501"
const GROUP = { name: "Summer sale", color: "#FF8800", items: ["5001"] };
const STRATEGY = { name: "Exact CPC", strategy: "exact", value: 0.4, maxValue: 0.9 };

afterEach(() => {
  expect(env.totalCalls()).toBe(0);
});

it("a bid modifier to create: one line naming the modifier it adopts", async () => {
  expect(await noticesOfCheck("BidModifier", { bidModifierId: MODIFIER, value: "1.40" })).toEqual([
    `BidModifier "${MODIFIER}": adopts the existing bid modifier ${MODIFIER}; nothing is created (PATCH /v2/adex/bid-modifiers/{id} sets the declared fields)`,
  ]);
});

it("an A/B-test variation to create: one line naming <abTestId>/<variationId>", async () => {
  const notices = await noticesOfCheck("AbTestVariation", { abTestId: "301", variationId: "2", name: "Hero image B" });
  expect(notices).toEqual([expect.stringContaining("adopts the existing A/B test variation 301/2; nothing is created")]);
});

it("adoptId on a group and on a strategy: one line naming the adopted id; without it, nothing", async () => {
  expect(await noticesOfCheck("CampaignGroup", { ...GROUP, adoptId: "701" })).toEqual([
    'CampaignGroup "Summer sale": adopts the existing campaign group 701 instead of creating one (GET /v2/adex/groups/{id} checks that its name and colour match)',
  ]);
  env.engine.clear();
  expect(await noticesOfCheck("BidStrategy", { ...STRATEGY, adoptId: "601" })).toEqual([
    expect.stringMatching(/^BidStrategy "Exact CPC": adopts the existing bid strategy 601 instead of creating one/),
  ]);
  env.engine.clear();
  expect(await noticesOfCheck("CampaignGroup", GROUP)).toEqual([]);
});

it("a resource the state already holds: nothing, unless a new modifier id makes its replacement adopt another", async () => {
  const held = { bidModifierId: MODIFIER, value: "1.40" };
  expect(await noticesOfCheck("BidModifier", { ...held, value: "1.50" }, held)).toEqual([]);
  expect(await noticesOfCheck("CampaignGroup", { ...GROUP, adoptId: "701" }, { ...GROUP, adoptId: "701" })).toEqual([]);
  expect(await noticesOfCheck("BidModifier", { bidModifierId: "502", value: "1.40" }, held)).toEqual([
    expect.stringContaining("adopts the existing bid modifier 502"),
  ]);
});

it("an id unknown during a preview names nothing, and a failing check says nothing", async () => {
  expect(await noticesOfCheck("BidModifier", { bidModifierId: UNKNOWN_VALUE, value: "1.40" })).toEqual([]);
  const failing = await env.plugin.check(env.urn("BidModifier", "x"), {}, env.inputs("BidModifier", { bidModifierId: MODIFIER }));
  expect(failing.failures).not.toEqual([]);
  expect(env.engine.logs.filter((log) => log.severity === "info")).toEqual([]);
});
