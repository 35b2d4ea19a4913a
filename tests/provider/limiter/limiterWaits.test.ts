/**
 * What the limiter tells waiting callers (`limiterWaits.ts`): the expected wait read off a decision,
 * reports no more often than `REPORT_EVERY_MS` and only past `REPORT_AFTER_MS`, and one backlog
 * line per busy stretch. Through the driver on a hand-driven clock, at the platform's windows.
 */
import { type Permit, RateLimiter } from "../../../provider/limiter";
import { decide, type ModelConfig } from "../../../provider/limiter/limiterModel";
import {
  backlogText,
  durationText,
  expectedWait,
  type LimitWait,
  REPORT_EVERY_MS,
  waitStatusText,
} from "../../../provider/limiter/limiterWaits";
import { FakeClock } from "../../helpers/fakeClock";
import { withCap } from "../../helpers/limiterConfig";

const CONFIG: ModelConfig = withCap(1000);

/** The state after `count` grants of class C at `now`, from fresh. */
function afterGrants(count: number, now: number, config: ModelConfig = CONFIG) {
  const queue = Array.from({ length: count }, (_, i) => ({ id: `a#${i}`, cls: "C", cost: 1 }));
  return decide(undefined, [], queue, now, config).state;
}

describe("the expected wait", () => {
  it("is nothing for what the current windows still take", () => {
    const state = afterGrants(3, 0);
    expect(expectedWait(state, "C", 7, 0, CONFIG).ms).toBe(0);
  });

  it("is the burst windows it takes within the steady one", () => {
    const state = afterGrants(10, 0);
    // The burst window ends at 1 s and a guard; then 10 per second.
    expect(expectedWait(state, "C", 25, 0, CONFIG)).toMatchObject({ ms: 1_010 + 2_000, window: { limit: 10, lengthMs: 1_000 } });
  });

  it("is the steady window's end, then a steady window per share's room, then the bursts of the last", () => {
    const config = { ...CONFIG, share: 0.5 };
    const state = afterGrants(5, 0, config);
    // 70 more fit this steady window; 75 the next (60 s and a guard), 5 of them after the burst room of 5.
    const wait = expectedWait(state, "C", 150, 0, config);
    expect(wait.window).toEqual({ room: 75, limit: 150, lengthMs: 60_000, share: 0.5 });
    expect(wait.ms).toBe(60_010 + 60_000 + 0);
    expect(expectedWait(state, "C", 76, 0, config).ms).toBe(60_010 + 1_000);
  });
});

describe("the texts", () => {
  it("say how long and at what rate, the share included", () => {
    const window = { room: 75, limit: 150, lengthMs: 60_000, share: 0.5 };
    expect(waitStatusText({ waitedMs: 2_000, leftMs: 37_200, window })).toBe(
      "waiting 38 s for the account's rate limit, 75 of 150 per minute (rateLimitShare 0.5)",
    );
    expect(waitStatusText({ waitedMs: 0, leftMs: 9_000, window: { room: 10, limit: 10, lengthMs: 1_000, share: 1 } })).toBe(
      "waiting 9 s for the account's rate limit, 10 per second",
    );
    expect(backlogText({ requests: 212, cost: 212, expectedMs: 84_100, window: { ...window, room: 150, share: 1 } })).toBe(
      "the account's rate limit paces this update: 212 requests so far at 150 per minute: about 1 m 25 s",
    );
    expect(durationText(120_000)).toBe("2 m");
  });
});

describe("the driver's reports", () => {
  function limiter(clock: FakeClock, share = 1) {
    return new RateLimiter({ clock, burstWindowMs: 1_000, steadyWindowMs: 60_000, guardMs: 0, share, concurrency: CONFIG.concurrency });
  }

  it("tell a request that waits past a few seconds how long, no more often than every 10 s, and the stretch's cost once", async () => {
    const clock = new FakeClock(0);
    const l = limiter(clock, 0.5);
    const reports: LimitWait[][] = Array.from({ length: 80 }, () => []);
    const permits = Array.from({ length: 80 }, (_, i) =>
      l.acquire({ rateClass: "C", cost: 1, onWait: (wait) => reports[i]!.push(wait) }).then((p: Permit) => p.release()),
    );
    await clock.advance(0);
    // The first 5 went at once (the burst room of the share): they hear nothing.
    expect(reports.slice(0, 5).flat()).toEqual([]);
    // The 76th waits for the next steady window: told so at its first decision.
    expect(reports[75]![0]).toMatchObject({ waitedMs: 0, leftMs: 60_000, window: { room: 75, limit: 150 } });
    // The 7th waits a second: under the few seconds worth a word.
    expect(reports[6]).toEqual([]);
    // Once the queue's head waits for the steady window (75 granted, 14 s in), the stretch's cost,
    // once, with that decision's first report: 80 requests, the last 5 as the next steady window opens.
    for (let t = 0; t < 20; t++) await clock.advance(1_000);
    const backlogs = reports.flat().filter((r) => r.backlog !== undefined);
    expect(backlogs).toHaveLength(1);
    expect(backlogs[0]!.backlog).toMatchObject({ requests: 80, cost: 80, expectedMs: 60_000 });
    const heard = reports[75]!.length;
    await clock.advance(REPORT_EVERY_MS - 1);
    await clock.advance(20_000);
    // At most one more report per 10 s of waiting.
    expect(reports[75]!.length).toBeLessThanOrEqual(heard + 3);
    expect(reports.flat().filter((r) => r.backlog !== undefined)).toHaveLength(1);
    await clock.advance(60_000);
    await Promise.all(permits);
  });

  it("a caller's report that throws changes nothing of what is granted", async () => {
    const clock = new FakeClock(0);
    const l = limiter(clock);
    let thrown = 0;
    const permits = Array.from({ length: 160 }, () =>
      l
        .acquire({
          rateClass: "C",
          cost: 1,
          onWait: () => {
            thrown += 1;
            throw new Error("not taken");
          },
        })
        .then((p: Permit) => p.release()),
    );
    for (let t = 0; t <= 61; t++) await clock.advance(1_000);
    await Promise.all(permits);
    expect(thrown).toBeGreaterThan(0);
  });
});
