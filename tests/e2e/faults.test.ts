/**
 * The resource fault suite (tests/faults/resourceFaults.test.ts) at the real engine's level:
 * `pulumi up` of the four resources through the real CLI and the real dynamic-provider plugin,
 * against the simulator with injected faults. After every `up`, `pulumi stack export` (the CLI's,
 * which keeps secrets encrypted) and the simulator's objects must agree: no duplicate strategy or
 * group, no PATCH in the state that the platform did not apply (nor the reverse), and no created
 * object left out of the state unless the `up`'s output named how to adopt it; adopting it then
 * converges with no second POST.
 *
 * Deterministic: the engine runs one step at a time (`parallel: 1`) and the program reads no data
 * source, so the simulator sees the same request sequence on every run; faults are scripted rules
 * or the simulator's seeded shares (reset before each case). Retry-After is 1 s; nothing asserts a
 * duration. The last case runs with the engine's default parallelism instead and reads data
 * sources beside the steps: its request order varies, so its faults are only ones every order
 * rides out (refusals, and 500s on PATCHes), and it asserts what holds for any order.
 */
import type { StackSession } from "../../scripts/driver/stackSession";
import { SEED_IDS, type WireRecord } from "../../simulator";
import { adplatformPackage, callsOf, collector, E2E_TIMEOUT_MS, useE2e } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const ctx = useE2e();
beforeEach(() => ctx.sim.reset());

const OP = { patchModifier: 1, postGroup: 2, postStrategy: 3, patchVariation: 4, getGroup: 19 } as const;
const MODIFIER = SEED_IDS.bidModifiers.countries;
const TYPE = (kind: string) => `pulumi-nodejs:dynamic/adplatform:${kind}`;
const STRATEGY_NAME = "Faulty night bids";
const GROUP_NAME = "Faulty spring sale";
const seededStrategyIds = new Set<string>(Object.values(SEED_IDS.bidStrategies));
const seededGroupIds = new Set<string>(Object.values(SEED_IDS.campaignGroups));

/** What the program declares; `*AdoptId` adopt an object instead of POSTing. */
interface Declared {
  modifierValue: string;
  variationName: string;
  strategyAdoptId?: string;
  groupAdoptId?: string;
}

/** The four resources, no data source (their GETs would run beside the steps, out of order). */
function programOf(declared: () => Declared) {
  const adp = adplatformPackage();
  return async () => {
    const d = declared();
    const strategy = new adp.BidStrategy("night-bids", {
      name: STRATEGY_NAME,
      strategy: "percent_add",
      value: 12.5,
      maxValue: 3,
      ...(d.strategyAdoptId ? { adoptId: d.strategyAdoptId } : {}),
    });
    const group = new adp.CampaignGroup("spring-sale", {
      name: GROUP_NAME,
      color: "#22aa44",
      items: ["5101", "5102"],
      ...(d.groupAdoptId ? { adoptId: d.groupAdoptId } : {}),
    });
    const modifier = new adp.BidModifier("dach", { bidModifierId: MODIFIER, value: d.modifierValue });
    const variation = new adp.AbTestVariation("hero-image", {
      abTestId: SEED_IDS.abTests.homepage,
      variationId: SEED_IDS.abTestVariations.homepageVariant,
      name: d.variationName,
    });
    return { strategyId: strategy.id, groupId: group.id, modifierId: modifier.id, variationId: variation.id };
  };
}

/** One resource of the exported state. */
interface StateResource {
  type: string;
  id?: string;
  outputs?: Record<string, unknown>;
}

/** The outcome of one `up`: whether it succeeded and everything it printed (output and error). */
interface UpOutcome {
  ok: boolean;
  text: string;
}

async function up(session: StackSession): Promise<UpOutcome> {
  const out = collector();
  try {
    await session.stack.up({ onOutput: out.onOutput, parallel: 1 });
    return { ok: true, text: out.text };
  } catch (error) {
    return { ok: false, text: `${out.text}\n${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The stack's resources of `kind` as `pulumi stack export` (the CLI, secrets encrypted) shows them. */
async function exported(session: StackSession, kind: string): Promise<StateResource[]> {
  const result = await session.cli(["stack", "export", "--stack", session.stack.name]);
  expect(result.code).toBe(0);
  const resources = (JSON.parse(result.stdout) as { deployment: { resources?: StateResource[] } }).deployment.resources ?? [];
  return resources.filter((r) => r.type === TYPE(kind));
}

const storedModifier = (): WireRecord => ctx.sim.state().bidModifiers.find((m) => m.id === MODIFIER)!;
const storedVariation = (): WireRecord =>
  ctx.sim
    .state()
    .abTestVariations.find((v) => v.ab_test_id === SEED_IDS.abTests.homepage && v.id === SEED_IDS.abTestVariations.homepageVariant)!;
const createdStrategies = () => ctx.sim.state().bidStrategies.filter((s) => !seededStrategyIds.has(String(s.id)));
const createdGroups = () => ctx.sim.state().campaignGroups.filter((g) => !seededGroupIds.has(String(g.id)));

/**
 * The state and the platform agree after an `up`: every strategy and group the platform created is
 * in the state, except orphans the given `up` outputs told the user how to adopt; at most one of
 * each exists (no duplicate from a repeated POST); the modifier and the variation are in the state
 * exactly with the values the platform holds, or absent with the platform unchanged (`before`).
 */
async function expectAgreement(session: StackSession, outputs: readonly string[], before: { modifier: WireRecord; variation: WireRecord }) {
  const said = outputs.join("\n");
  for (const [kind, created, name] of [
    ["BidStrategy", createdStrategies(), STRATEGY_NAME],
    ["CampaignGroup", createdGroups(), GROUP_NAME],
  ] as const) {
    expect(created.length).toBeLessThanOrEqual(1);
    const inState = (await exported(session, kind)).map((r) => r.id);
    expect(inState.length).toBeLessThanOrEqual(1);
    for (const object of created) {
      if (inState.includes(String(object.id))) continue;
      // An orphan: an `up` said it may exist and how to adopt it (by its id, or by its name).
      expect(said).toMatch(new RegExp(`may have reached the platform[\\s\\S]*(${String(object.id)}|${JSON.stringify(name)})`));
      expect(said).toContain("adoptId");
    }
    for (const id of inState) expect(created.map((o) => String(o.id))).toContain(id);
  }

  const [modifier] = await exported(session, "BidModifier");
  if (modifier) expect(storedModifier().value).toBe(modifier.outputs?.value);
  else expect(storedModifier()).toEqual(before.modifier);
  const [variation] = await exported(session, "AbTestVariation");
  if (variation) expect(storedVariation().name).toBe(variation.outputs?.name);
  else expect(storedVariation()).toEqual(before.variation);
}

/**
 * What a careful engineer does after an ambiguous create (docs/guarantees.md): for each record an
 * `up` named, adopt the object when the platform holds it and the state does not, else name the
 * record in `adplatform:createAgain`.
 */
async function resolveRecords(session: StackSession, text: string, declared: Declared): Promise<void> {
  const createAgain: string[] = [];
  for (const [kind, name, created, adopt] of [
    ["BidStrategy", STRATEGY_NAME, createdStrategies(), (id: string) => (declared.strategyAdoptId = id)],
    ["CampaignGroup", GROUP_NAME, createdGroups(), (id: string) => (declared.groupAdoptId = id)],
  ] as const) {
    const record = new RegExp(`${kind} ${JSON.stringify(name)}:[^\\n]*?ambiguous record (amb-[0-9a-f]{12})`).exec(text)?.[1];
    if (record === undefined) continue;
    const inState = (await exported(session, kind)).map((r) => r.id);
    const orphan = created.find((object) => !inState.includes(String(object.id)));
    if (orphan !== undefined) adopt(String(orphan.id));
    else createAgain.push(record);
  }
  if (createAgain.length > 0) await session.stack.setConfig("adplatform:createAgain", { value: createAgain.join(",") });
}

const seeded = () => ({ modifier: structuredClone(storedModifier()), variation: structuredClone(storedVariation()) });

test("seeded 20% 500s of both shapes and 429 storms: every up leaves state and platform agreeing, and a re-run after resolving each record converges", async () => {
  const before = seeded();
  const declared: Declared = { modifierValue: "1.40", variationName: "Hero image B" };
  const session = await ctx.open({ program: programOf(() => declared) });
  ctx.sim.setFaults({
    errorRate: 0.2,
    errorNoTraceShare: 0.5,
    rules: [
      // Scripted on top of the seeded shares, so each shape is certainly met: both 500 shapes on a
      // PATCH, a Retry-After storm on the strategy's POST, a Retry-After -1 storm on the group's,
      // then a 500 on the group's POST once the storm let it through (the first up must fail).
      { kind: "error500", op: OP.patchModifier },
      { kind: "error500NoTrace", op: OP.patchVariation },
      { kind: "rateLimit", op: OP.postStrategy, count: 2, retryAfter: 1 },
      { kind: "concurrency", op: OP.postGroup, count: 2 },
      { kind: "error500", op: OP.postGroup },
    ],
  });

  // A careful engineer re-runs a failed up; each run must leave both sides agreeing.
  const outputs: string[] = [];
  let last: UpOutcome | undefined;
  for (let run = 0; run < 4 && !last?.ok; run++) {
    last = await up(session);
    outputs.push(last.text);
    if (!last.ok) {
      // Only a POST answered 500 may fail a run (GET and PATCH retry): ambiguous, with advice.
      expect(last.text).toMatch(/the create request may have reached the platform/);
      expect(last.text).toMatch(/500 Internal Server Error/);
    }
    await expectAgreement(session, outputs, before);
    // A re-run alone sends no create again: the engineer looks on the platform and resolves each record.
    if (!last.ok) await resolveRecords(session, last.text, declared);
  }
  expect(last?.ok).toBe(true);
  // The first run failed on the group's POST (scripted above), with the advice to adopt by name.
  expect(outputs.length).toBeGreaterThanOrEqual(2);
  expect(outputs[0]).toContain(`CampaignGroup "${GROUP_NAME}": the create request may have reached the platform`);
  expect(outputs[0]).toContain(`Look on the platform for a campaign group named "${GROUP_NAME}"`);

  // The storms were ridden out: the POSTs refused with 429 were sent again; every PATCH and POST that
  // met a 500 shape is in the log, and a POST was never sent after a 201.
  const faults = [OP.patchModifier, OP.patchVariation, OP.postStrategy, OP.postGroup].flatMap((op) =>
    callsOf(ctx.sim, op).map((c) => c.fault),
  );
  for (const kind of ["error500", "error500NoTrace", "rateLimit", "concurrency"]) expect(faults).toContain(kind);
  for (const op of [OP.postStrategy, OP.postGroup]) {
    expect(callsOf(ctx.sim, op).filter((c) => c.status === 201)).toHaveLength(1);
  }
  expect(createdStrategies().map((s) => s.name)).toEqual([STRATEGY_NAME]);
  expect(createdGroups().map((g) => g.name)).toEqual([GROUP_NAME]);
  expect(storedModifier()).toMatchObject({ value: "1.40" });
  expect(storedVariation()).toMatchObject({ name: "Hero image B" });

  // A PATCH that fails every attempt fails the up clearly and is not recorded; the next up sends it.
  ctx.sim.setFaults({ errorRate: 0, rules: [{ kind: "error500", op: OP.patchModifier, count: 5 }] });
  declared.modifierValue = "1.55";
  const failed = await up(session);
  expect(failed.ok).toBe(false);
  expect(failed.text).toMatch(
    /BidModifier "501": updateBidModifier \(PATCH \/v2\/adex\/bid-modifiers\/501\) failed: 500 Internal Server Error/,
  );
  expect((await exported(session, "BidModifier"))[0]?.outputs?.value).toBe("1.40");
  expect(storedModifier()).toMatchObject({ value: "1.40" });
  expect((await up(session)).ok).toBe(true);
  expect((await exported(session, "BidModifier"))[0]?.outputs?.value).toBe("1.55");
  expect(storedModifier()).toMatchObject({ value: "1.55" });
});

test("a strategy POST dropped after it was applied: the up fails with adoption advice; adoptId converges with no second POST", async () => {
  const before = seeded();
  const declared: Declared = { modifierValue: "1.40", variationName: "Hero image B" };
  const session = await ctx.open({ program: programOf(() => declared) });
  ctx.sim.setFaults({ rules: [{ kind: "dropAfter", op: OP.postStrategy }] });

  const first = await up(session);
  expect(first.ok).toBe(false);
  expect(first.text).toContain(`BidStrategy "${STRATEGY_NAME}": the create request may have reached the platform`);
  expect(first.text).toContain(`Look on the platform for a bid strategy named "${STRATEGY_NAME}"`);
  expect(callsOf(ctx.sim, OP.postStrategy).map((c) => c.status)).toEqual(["dropped-after"]);
  // The orphan: on the platform, not in the state.
  const orphans = createdStrategies();
  expect(orphans.map((s) => s.name)).toEqual([STRATEGY_NAME]);
  expect(await exported(session, "BidStrategy")).toEqual([]);
  await expectAgreement(session, [first.text], before);

  declared.strategyAdoptId = String(orphans[0].id);
  const second = await up(session);
  expect(second.ok).toBe(true);
  expect((await exported(session, "BidStrategy")).map((r) => r.id)).toEqual([String(orphans[0].id)]);
  expect(callsOf(ctx.sim, OP.postStrategy)).toHaveLength(1);
  expect(createdStrategies()).toHaveLength(1);
  await expectAgreement(session, [first.text, second.text], before);
  expect((await session.stack.preview({ expectNoChanges: true, parallel: 1 })).changeSummary).toEqual({ same: 5 });
});

test("a group POST answered 201 with a wrong-shaped body: the up's error names the created id; adopting that id converges", async () => {
  const before = seeded();
  const declared: Declared = { modifierValue: "1.40", variationName: "Hero image B" };
  const session = await ctx.open({ program: programOf(() => declared) });
  ctx.sim.setFaults({ rules: [{ kind: "wrongShape", op: OP.postGroup }] });

  const first = await up(session);
  expect(first.ok).toBe(false);
  const orphans = createdGroups();
  expect(orphans.map((g) => g.name)).toEqual([GROUP_NAME]);
  const id = String(orphans[0].id);
  expect(first.text).toContain(`The platform may have created campaign group ${id}`);
  expect(first.text).toContain(`set \`adoptId: "${id}"\``);
  expect(await exported(session, "CampaignGroup")).toEqual([]);
  await expectAgreement(session, [first.text], before);

  declared.groupAdoptId = id;
  const second = await up(session);
  expect(second.ok).toBe(true);
  expect((await exported(session, "CampaignGroup")).map((r) => r.id)).toEqual([id]);
  expect(callsOf(ctx.sim, OP.postGroup)).toHaveLength(1);
  expect(callsOf(ctx.sim, OP.getGroup)).toHaveLength(1); // adopting reads the group back and checks it
  await expectAgreement(session, [first.text, second.text], before);
});

describe("with the engine's default parallelism and data sources read beside the steps", () => {
  test("a 429 storm, a -1 and 500s on PATCHes are ridden out in one up, and state and platform agree", async () => {
    const before = seeded();
    const declared: Declared = { modifierValue: "1.45", variationName: "Hero image C" };
    const adp = adplatformPackage();
    const resources = programOf(() => declared);
    const session = await ctx.open({
      program: async () => {
        // Read beside the steps (the program process), while the plugin process creates and updates.
        const zone = adp.getZoneOutput({ id: SEED_IDS.zones.display });
        const countries = adp.getCountriesOutput();
        return { ...(await resources()), zoneName: zone.name, countryCount: countries.apply((c) => c.items.length) };
      },
    });
    // Every request waits 30 ms, so the steps' requests overlap. The 429 storm hits whichever requests
    // come first, in any order the engine chooses, and pauses both processes; one -1 on the group's
    // POST leaves an in-flight cap of at least 2 whatever was in flight with it. Each is answered by
    // a retry (a refused request was not processed, so even a POST may go again; a PATCH repeats
    // safely after a 500).
    ctx.sim.setFaults({
      delayMs: 30,
      rules: [
        { kind: "error500", op: OP.patchModifier },
        { kind: "error500NoTrace", op: OP.patchVariation },
        { kind: "concurrency", op: OP.postGroup },
        { kind: "rateLimit", count: 2, retryAfter: 1 },
      ],
    });

    const out = collector();
    await session.stack.up({ onOutput: out.onOutput });
    await expectAgreement(session, [out.text], before);

    expect(ctx.sim.windows().inFlight.peak).toBeGreaterThan(1); // the engine really ran steps at once
    const faults = Object.values(ctx.sim.requests().operations).flatMap((o) => o.calls.map((c) => c.fault));
    for (const kind of ["error500", "error500NoTrace", "concurrency", "rateLimit"]) expect(faults).toContain(kind);
    for (const op of [OP.postStrategy, OP.postGroup]) expect(callsOf(ctx.sim, op).filter((c) => c.status === 201)).toHaveLength(1);
    expect(createdStrategies().map((s) => s.name)).toEqual([STRATEGY_NAME]);
    expect(createdGroups().map((g) => g.name)).toEqual([GROUP_NAME]);
    expect(storedModifier()).toMatchObject({ value: "1.45" });
    expect(storedVariation()).toMatchObject({ name: "Hero image C" });
    expect((await session.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 5 });
  });
});
