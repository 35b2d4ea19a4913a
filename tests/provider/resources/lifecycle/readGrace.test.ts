/**
 * The read grace on a hand-moved clock: each test plays a platform that shows the object from some
 * moment on (or never) and records the trace of reads the grace makes, at which times and with what
 * outcome. No real time passes.
 */
import { resolveSettings, valuesLayer } from "../../../../provider/configuration/settings";
import type { LifecycleContext } from "../../../../provider/resources/lifecycle/context";
import { CreateSession } from "../../../../provider/resources/journal";
import {
  CREATED_AT_OUTPUT,
  notShownYetWarning,
  readGraceMs,
  readWithGrace,
  withCreationTime,
  type GraceRead,
} from "../../../../provider/resources/lifecycle/readGrace";
import { resourceLifecycle } from "../../../../provider/resources/registry";
import { FakeClock } from "../../../helpers/fakeClock";

const CREATED = Date.parse("2026-11-27T13:00:00.000Z");
const SECOND = 1000;

function contextAt(clock: FakeClock, readGraceSeconds?: string): LifecycleContext {
  const settings = resolveSettings([valuesLayer("stackConfig", { readGraceSeconds })], {});
  return { warn: async () => undefined, info: async () => undefined, settings, createSession: new CreateSession(clock) };
}

/**
 * Reads at `startAfterMs` after the create, against a platform that shows the object from
 * `showsAfterMs` after it (never: Infinity), for a state that records the create (or `state`).
 * Returns the outcome and the trace of reads: `+<seconds after create> missing|found`.
 */
async function play(options: {
  startAfterMs: number;
  showsAfterMs: number;
  readGraceSeconds?: string;
  state?: Record<string, unknown>;
}): Promise<{ outcome: GraceRead<string>; trace: string[] }> {
  const clock = new FakeClock(CREATED + options.startAfterMs);
  const trace: string[] = [];
  const state = options.state ?? { [CREATED_AT_OUTPUT]: new Date(CREATED).toISOString() };
  const readOnce = async () => {
    const since = clock.now() - CREATED;
    const shown = since >= options.showsAfterMs;
    trace.push(`+${since / SECOND} ${shown ? "found" : "missing"}`);
    return shown ? "the object" : undefined;
  };
  let outcome: GraceRead<string> | undefined;
  const reading = readWithGrace(contextAt(clock, options.readGraceSeconds), state, readOnce).then((result) => (outcome = result));
  // Moves time in small steps until the read settles: at most an hour, so a bug cannot spin.
  for (let step = 0; outcome === undefined && step < 36_000; step += 1) await clock.advance(100);
  await reading;
  return { outcome: outcome!, trace };
}

it("reads again with backoff while a new object does not show, and finds it once the platform shows it", async () => {
  const { outcome, trace } = await play({ startAfterMs: 100, showsAfterMs: 5 * SECOND });
  expect(trace).toEqual(["+0.1 missing", "+1.1 missing", "+3.1 missing", "+7.1 found"]);
  expect(outcome).toEqual({ found: "the object" });
});

it("reads once when the object shows at once", async () => {
  const { outcome, trace } = await play({ startAfterMs: 100, showsAfterMs: 0 });
  expect(trace).toEqual(["+0.1 found"]);
  expect(outcome).toEqual({ found: "the object" });
});

it("stops after 30 s of reading within the grace period and keeps the object as not shown yet", async () => {
  const { outcome, trace } = await play({ startAfterMs: 10 * SECOND, showsAfterMs: Infinity });
  // Pauses 1, 2, 4, 8, 16 s; the next one would end past 30 s after the first read.
  expect(trace).toEqual(["+10 missing", "+11 missing", "+13 missing", "+17 missing", "+25 missing"]);
  expect(outcome).toEqual({ notShownYet: true, graceEndsAt: CREATED + 300 * SECOND, attempts: 5 });
});

it("reads a last time at the end of the grace period, after which a missing object is gone", async () => {
  const { outcome, trace } = await play({ startAfterMs: 299.5 * SECOND, showsAfterMs: Infinity });
  expect(trace).toEqual(["+299.5 missing", "+300 missing"]);
  expect(outcome).toEqual({ gone: true });
});

it("takes a missing object as gone after the grace period, with one read", async () => {
  const { outcome, trace } = await play({ startAfterMs: 301 * SECOND, showsAfterMs: Infinity });
  expect(trace).toEqual(["+301 missing"]);
  expect(outcome).toEqual({ gone: true });
});

it("takes a missing object as gone when the state has no creation time (written before it was recorded)", async () => {
  const { outcome, trace } = await play({ startAfterMs: 100, showsAfterMs: Infinity, state: { name: "old" } });
  expect(trace).toEqual(["+0.1 missing"]);
  expect(outcome).toEqual({ gone: true });
});

it("follows readGraceSeconds: 0 turns the grace off, 20 ends it after 20 s", async () => {
  expect((await play({ startAfterMs: 100, showsAfterMs: Infinity, readGraceSeconds: "0" })).trace).toEqual(["+0.1 missing"]);
  const short = await play({ startAfterMs: 100, showsAfterMs: Infinity, readGraceSeconds: "20" });
  expect(short.trace).toEqual(["+0.1 missing", "+1.1 missing", "+3.1 missing", "+7.1 missing", "+15.1 missing", "+20 missing"]);
  expect(short.outcome).toEqual({ gone: true });
});

it("refuses a readGraceSeconds that is not a whole number of seconds, naming the setting", () => {
  const clock = new FakeClock(CREATED);
  expect(readGraceMs(contextAt(clock).settings)).toBe(300 * SECOND);
  expect(() => readGraceMs(contextAt(clock, "5m").settings)).toThrow(/^adplatform:readGraceSeconds must be a whole number of seconds/);
});

it("says in its warning that the platform does not show the object yet, and when a missing one will be gone", () => {
  const message = notShownYetWarning('CampaignGroup "Launch" (id 100001)', "campaign group", {
    graceEndsAt: CREATED + 300 * SECOND,
    attempts: 5,
  });
  expect(message).toMatch(/^CampaignGroup "Launch" \(id 100001\): the platform does not show this campaign group yet/);
  expect(message).toMatch(/stays in the stack's state.*after 2026-11-27T13:05:00\.000Z/);
});

describe("the recorded creation time", () => {
  const inputs = { name: "Launch", color: "#2255aa", items: ["5101"] };

  it("is the time on the create session's clock, added to the outputs", () => {
    const ctx = contextAt(new FakeClock(CREATED));
    expect(withCreationTime(ctx, { ...inputs, companyId: "7001" })).toEqual({
      ...inputs,
      companyId: "7001",
      [CREATED_AT_OUTPUT]: "2026-11-27T13:00:00.000Z",
    });
  });

  it("is no diff: a state that has it and one written before it compare alike", async () => {
    const ctx = contextAt(new FakeClock(CREATED));
    for (const kind of ["CampaignGroup", "BidStrategy"] as const) {
      const declared = kind === "CampaignGroup" ? inputs : { name: "CPC", pricingModel: "cpc", strategy: "exact", value: 0.5, maxValue: 2 };
      const lifecycle = resourceLifecycle(kind);
      const withTime = { ...declared, [CREATED_AT_OUTPUT]: "2026-11-27T13:00:00.000Z" };
      expect(await lifecycle.diff("1", withTime, declared, ctx)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
      expect(await lifecycle.diff("1", declared, declared, ctx)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    }
  });
});
