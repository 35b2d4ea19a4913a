/**
 * One rate class's windows on their own: requests are charged while they fit (as the limiter admits
 * them), answered with the server's `X-RateLimit-*` headers or released without an answer, at
 * times the test picks. Class C: 10 per burst window, 150 per steady window.
 */
import { RATE_CLASSES } from "../../../provider/catalog";
import type { RateClass } from "../../../provider/catalog/types";
import type { RateLimitInfo } from "../../../provider/client";
import { type ClassMark, RateClassWindows, RateClassStateSchema } from "../../../provider/client/rateClassWindows";

const BURST_MS = 1_000;
const STEADY_MS = 60_000;
const T0 = 1_000;

function classC(limits: RateClass = RATE_CLASSES.C): RateClassWindows {
  return new RateClassWindows(limits, { burstMs: BURST_MS, steadyMs: STEADY_MS }, BURST_MS / 50);
}

/**
 * Charges up to `count` requests of `cost` at `now`, each only when it fits (as the limiter admits
 * them); with `release`, each is released at once without an answer. Returns their marks.
 */
function admit(
  windows: RateClassWindows,
  count: number,
  now: number,
  options: { cost?: number; guardMs?: number; release?: boolean } = {},
): ClassMark[] {
  const { cost = 1, guardMs = 0, release = false } = options;
  const marks: ClassMark[] = [];
  while (marks.length < count && windows.waitMs(cost, now, guardMs) === 0) {
    const mark = windows.charge(cost, now, guardMs);
    marks.push(mark);
    if (release) releaseUnanswered(windows, mark, now, cost);
  }
  return marks;
}

/** A 200 to the request at `mark`, its headers received at `now`. */
function answer(windows: RateClassWindows, mark: ClassMark, info: RateLimitInfo, now: number, cost = 1): void {
  const reported = windows.applyServerReport(mark, info, now, now, false);
  windows.settle(mark, cost, { refused: false, reported }, now);
}

/** The request at `mark` released without an answer (counted, where unknown). */
function releaseUnanswered(windows: RateClassWindows, mark: ClassMark, now: number, cost = 1): void {
  windows.settle(mark, cost, { refused: false }, now);
}

describe("rate class windows", () => {
  it("charge a request to both windows, and a cost above a window's limit as the whole window", () => {
    const windows = classC({ burst: 3, steady: 60 });
    admit(windows, 1, T0, { cost: 5 });
    expect(windows.view(T0)).toMatchObject({ burst: { used: 3, limit: 3 }, steady: { used: 5, limit: 60 } });
    expect(windows.waitMs(1, T0, 0)).toBe(BURST_MS);
  });

  it("believe the server when it reports fewer requests left than we counted", () => {
    const windows = classC();
    const [first] = admit(windows, 1, T0);
    // Another process spent 139 of this minute: 10 remain, and the minute ends in 30 s.
    answer(windows, first!, { limit: 150, remaining: 10, resetMs: 30_000 }, T0);
    expect(admit(windows, 20, T0, { release: true })).toHaveLength(9); // burst: 1 + 9
    expect(admit(windows, 20, T0 + BURST_MS, { release: true })).toHaveLength(1); // steady: 140 + 10 = 150
    expect(windows.waitMs(1, T0 + BURST_MS, 0)).toBe(30_000 - BURST_MS);
    expect(windows.waitMs(1, T0 + 25_000, 0)).toBe(5_000);
    expect(admit(windows, 20, T0 + 30_000).length).toBeGreaterThan(0);
  });

  it("add what they admitted after a request to the server's count, and hold as much back for another process", () => {
    const windows = classC();
    const [first] = admit(windows, 1, T0);
    const later = admit(windows, 4, T0);
    // The server had counted 3 when it took our first request: 2 are another process's. Our 4 later
    // requests may not be counted yet, and the other process may have as many in flight.
    answer(windows, first!, { limit: 10, remaining: 7, resetMs: 800 }, T0);
    expect(windows.view(T0).burst.used).toBe(3 + 4 + 4);
    expect(windows.waitMs(1, T0, 0)).toBe(800);
    // Our 4 later requests are answered before the window ends (else they would be carried too).
    for (const mark of later) releaseUnanswered(windows, mark, T0);
    expect(admit(windows, 1, T0 + 800)).toHaveLength(1);
    // The next window opens with the other process's share of the last one already counted.
    expect(windows.view(T0 + 800).burst.used).toBe(2 + 1);
  });

  it.each([
    ["did not spend it: the room is released halfway through the window", 0, 3],
    ["spent it: the room stays theirs", 3, 0],
  ])("open a window with room for another process that, as the server's count shows, %s", (_, othersSpend, releasedRoom) => {
    const windows = classC();
    const [first] = admit(windows, 1, T0);
    // The server had counted 4 when it took our first request: 3 are another process's.
    answer(windows, first!, { limit: 10, remaining: 6, resetMs: 800 }, T0);
    // The next window opens with room for them: 7 of ours fit.
    const opened = T0 + 800;
    const ours = admit(windows, 10, opened);
    expect(ours).toHaveLength(7);
    ours.forEach((mark, i) => answer(windows, mark, { limit: 10, remaining: 10 - (i + 1 + othersSpend), resetMs: 1_000 }, opened));
    // Halfway through the window, what they did not spend of it is ours.
    expect(windows.waitMs(1, opened, 0)).toBe(releasedRoom > 0 ? BURST_MS / 2 : BURST_MS);
    expect(admit(windows, 10, opened + BURST_MS / 2 - 1)).toHaveLength(0);
    expect(admit(windows, 10, opened + BURST_MS / 2)).toHaveLength(releasedRoom);
  });

  it("release the room held for the others at once when answers show the server's window past halfway", () => {
    const windows = classC();
    const marks = admit(windows, 3, T0);
    // A refusal showed the window full around 2 of ours: the next window holds 5 for the others.
    const refused = marks.pop()!;
    for (const mark of marks) releaseUnanswered(windows, mark, T0);
    windows.burst.countOthersFromRefusal(refused.burst, 1, T0);
    windows.burst.fillUntilEnd(refused.burst, T0 + 900, T0);
    windows.settle(refused, 1, { refused: true }, T0);
    // We wake late into the server's next window (a refusal's bound lies anywhere in it).
    const opened = T0 + 1_500;
    const ours = admit(windows, 10, opened);
    expect(ours).toHaveLength(5);
    // The answers: the server's window ends in 400 ms, so it is past halfway, and it had counted 3
    // of the others' before ours. What they did not spend of the 5 is ours now.
    ours.forEach((mark, i) => answer(windows, mark, { limit: 10, remaining: 10 - (3 + i + 1), resetMs: 400 }, opened));
    expect(admit(windows, 10, opened)).toHaveLength(2);
  });

  it.each([
    ["others filled it around 2 of ours: the next one holds half the window for them", 3, 5],
    ["ours filled all but one unit of it: the next one holds that unit", 10, 1],
  ])("open a window with room for the others after a refusal showed the last one full: %s", (_, oursCharged, held) => {
    const windows = classC();
    const marks = admit(windows, oursCharged, T0);
    // The last of ours is refused with the window full (no report ever showed the others spend);
    // the others were answered.
    const refused = marks.pop()!;
    for (const mark of marks) releaseUnanswered(windows, mark, T0);
    windows.burst.countOthersFromRefusal(refused.burst, 1, T0);
    expect(windows.burst.fillUntilEnd(refused.burst, T0 + 900, T0)).toBe(T0 + 900);
    windows.settle(refused, 1, { refused: true }, T0);
    expect(admit(windows, 10, T0 + 900)).toHaveLength(10 - held);
  });

  it.each([false, true])(
    "count a later request that was answered first once, not again on an earlier one's answer (machine shared: %s)",
    (machineShared) => {
      const windows = classC();
      const [first, second, third] = admit(windows, 3, T0);
      // Others spent 145 of the minute. The server took our third request first (146), then the
      // first (147), then the second (148), and the answers come back in that order.
      const steadyAnswer = (mark: ClassMark, remaining: number) => {
        const reported = windows.applyServerReport(mark, { limit: 150, remaining, resetMs: 30_000 }, T0, T0, machineShared);
        windows.settle(mark, 1, { refused: false, reported }, T0);
      };
      steadyAnswer(third!, 4);
      steadyAnswer(first!, 3);
      steadyAnswer(second!, 2);
      // Nothing of ours is in flight: the server's 148 is the whole count, and 2 requests still fit.
      expect(windows.view(T0).steady.used).toBe(148);
      expect(admit(windows, 3, T0 + BURST_MS, { release: true })).toHaveLength(2);
    },
  );

  it("hold room for another process's requests in flight at the pace the server's count shows it spending", () => {
    const windows = classC();
    const marks = admit(windows, 5, T0);
    // Between our first and second request the server counted two of another process's: 2 per ours.
    answer(windows, marks[0]!, { limit: 150, remaining: 140, resetMs: 30_000 }, T0); // 10 counted: 9 others
    answer(windows, marks[1]!, { limit: 150, remaining: 137, resetMs: 30_000 }, T0); // +3: ours and 2 others
    // Pace (1 + 2) / 2 = 1.5 per ours; 3 of ours in flight: 5 held beside the count of 13 + 3.
    expect(windows.view(T0).steady.used).toBe(13 + 3 + 5);
    // The count now rises by ours alone: the pace halves at each report, and so does the room.
    answer(windows, marks[2]!, { limit: 150, remaining: 136, resetMs: 30_000 }, T0);
    answer(windows, marks[3]!, { limit: 150, remaining: 135, resetMs: 30_000 }, T0);
    answer(windows, marks[4]!, { limit: 150, remaining: 134, resetMs: 30_000 }, T0);
    expect(windows.view(T0).steady.used).toBe(16);
  });

  it("forget another process's share once a window shows it no longer spends", () => {
    const windows = classC();
    const [first] = admit(windows, 1, T0);
    answer(windows, first!, { limit: 10, remaining: 5, resetMs: 500 }, T0);
    const [second] = admit(windows, 1, T0 + 500);
    expect(windows.view(T0 + 500).burst.used).toBe(4 + 1); // the 4 others of the last window, and ours
    answer(windows, second!, { limit: 10, remaining: 9, resetMs: 900 }, T0 + 500);
    admit(windows, 1, T0 + 1_400);
    expect(windows.view(T0 + 1_400).burst.used).toBe(1);
  });

  it("move a window's end to X-RateLimit-Reset, on the window whose limit the header gives", () => {
    const windows = classC();
    const marks = admit(windows, 10, T0);
    // The server's burst window opened earlier (another process) and ends in 200 ms.
    answer(windows, marks[9]!, { limit: 10, remaining: 0, resetMs: 200 }, T0);
    for (const mark of marks.slice(0, 9)) releaseUnanswered(windows, mark, T0);
    expect(windows.view(T0)).toMatchObject({ burst: { endsInMs: 200, synced: true }, steady: { synced: false } });
    expect(windows.waitMs(1, T0 + 199, 0)).toBe(1);
    expect(windows.waitMs(1, T0 + 200, 0)).toBe(0);
  });

  it("ignore a report about a window that has already ended", () => {
    const windows = classC();
    const [synced] = admit(windows, 1, T0);
    answer(windows, synced!, { limit: 10, remaining: 9, resetMs: BURST_MS }, T0);
    const [old] = admit(windows, 1, T0);
    admit(windows, 1, T0 + BURST_MS);
    // The old request's response travelled across the boundary: it says its window was full. Its
    // cost, carried while it was unanswered, goes back: it was counted in the old window.
    expect(windows.view(T0 + BURST_MS).burst.used).toBe(2);
    answer(windows, old!, { limit: 10, remaining: 0, resetMs: 1 }, T0 + BURST_MS);
    expect(windows.view(T0 + BURST_MS).burst.used).toBe(1);
  });

  it("charge a request admitted just before the boundary to the next window too", () => {
    const windows = classC();
    const guardMs = 50;
    admit(windows, 1, T0, { guardMs, release: true });
    // The window we opened ends at length + guard; 20 ms before that, 9 more go out.
    const late = T0 + BURST_MS + guardMs - 20;
    expect(admit(windows, 9, late, { guardMs, release: true })).toHaveLength(9);
    // Those 9 may land in the server's next window: only 1 more fits there.
    expect(admit(windows, 2, late + 20, { guardMs, release: true })).toHaveLength(1);
  });

  it("open the next window without a request charged to it ahead that the server refused", () => {
    const windows = classC();
    const guardMs = 50;
    admit(windows, 1, T0, { guardMs, release: true });
    const late = T0 + BURST_MS + guardMs - 20;
    const [ahead] = admit(windows, 1, late, { guardMs });
    // Refused (429): counted in neither window.
    windows.settle(ahead!, 1, { refused: true }, late + 5);
    expect(admit(windows, 10, late + 20, { guardMs, release: true })).toHaveLength(10);
  });

  it("carry a request still unanswered at the boundary into the next window, until its answer says where it was counted", () => {
    const windows = classC();
    // A cold start: 10 go out at once and no answer comes back before our window's end.
    const first = admit(windows, 10, T0);
    const now = T0 + BURST_MS;
    // Any of the 10 may still reach the server after its window ended: none of them fits beside.
    expect(admit(windows, 3, now, { release: true })).toHaveLength(0);
    // 4 answers say they were counted in the window they were admitted in (it ends now): their
    // carried cost goes back, 3 more fit.
    for (const [i, mark] of first.slice(0, 4).entries()) answer(windows, mark, { limit: 10, remaining: 9 - i, resetMs: 0 }, now);
    expect(admit(windows, 3, now, { release: true })).toHaveLength(3);
    // 2 answers say they were counted in the server's next window (it ends a whole length later):
    // they stay charged to ours. 4 are still unanswered. 10 - 4 - 2 - 3 = 1 more fits.
    for (const mark of first.slice(4, 6)) answer(windows, mark, { limit: 10, remaining: 8, resetMs: BURST_MS }, now);
    expect(admit(windows, 2, now, { release: true })).toHaveLength(1);
    expect(windows.view(now).burst.used).toBe(10);
  });

  it("hold a window past its guessed end while none of its requests is answered, until an answer gives the server's end", () => {
    const windows = classC();
    const pollMs = BURST_MS / 50;
    // A cold start: 10 go out, nothing answers for 1.5 windows (the server's window opened late).
    const first = admit(windows, 10, T0);
    expect(windows.waitMs(1, T0 + BURST_MS, 0)).toBe(pollMs);
    const now = T0 + 1.5 * BURST_MS;
    expect(windows.waitMs(1, now, 0)).toBe(pollMs);
    // The first answer: the server's window ends 300 ms from now. Every request of ours is in it.
    answer(windows, first[9]!, { limit: 10, remaining: 0, resetMs: 300 }, now);
    for (const mark of first.slice(0, 9)) releaseUnanswered(windows, mark, now);
    expect(windows.waitMs(1, now + 299, 0)).toBe(1);
    expect(admit(windows, 10, now + 300)).toHaveLength(10);
  });

  it("give a refused request's cost back to the steady window only", () => {
    const windows = classC();
    const marks = admit(windows, 10, T0);
    windows.settle(marks[9]!, 1, { refused: true }, T0);
    windows.refundSteady(marks[9]!, 1, T0);
    expect(windows.view(T0)).toMatchObject({ burst: { used: 10 }, steady: { used: 9 } });
  });

  it("take a window's limit from the server, raise it again when a later answer says more, and keep it through export and restore", () => {
    const windows = classC();
    const [first] = admit(windows, 1, T0);
    answer(windows, first!, { limit: 120, remaining: 100, resetMs: 30_000 }, T0);
    expect(windows.view(T0).steady.limit).toBe(120);
    const [second] = admit(windows, 1, T0);
    answer(windows, second!, { limit: 150, remaining: 100, resetMs: 30_000 }, T0);
    expect(windows.view(T0).steady.limit).toBe(150);
    const [third] = admit(windows, 1, T0);
    answer(windows, third!, { limit: 140, remaining: 100, resetMs: 30_000 }, T0);
    const shared = RateClassStateSchema.parse(JSON.parse(JSON.stringify(windows.exportState())));
    const other = classC();
    other.restoreState(shared, T0);
    expect(other.view(T0)).toEqual(windows.view(T0));
    expect(other.exportState()).toEqual(windows.exportState());
  });

  it("read a reset longer than the window it describes as the window's length (a Unix time, a typo)", () => {
    const windows = classC();
    const marks = admit(windows, 10, T0);
    answer(windows, marks[9]!, { limit: 10, remaining: 0, resetMs: 1_764_012_345_000 }, T0);
    expect(windows.view(T0).burst).toMatchObject({ used: 10, endsInMs: BURST_MS, synced: true });
    expect(windows.waitMs(1, T0, 0)).toBe(BURST_MS);
    answer(windows, marks[8]!, { limit: 150, remaining: 140, resetMs: 3_600_000 }, T0);
    expect(windows.view(T0).steady.endsInMs).toBe(STEADY_MS);
  });

  it("find the earliest time a request fits, and try a charge on a copy without making it", () => {
    const windows = classC({ burst: 10, steady: 12 });
    admit(windows, 4, T0, { cost: 2, release: true }); // 8 of 10 and of 12
    expect(windows.earliestFit(3, T0, 0)).toBe(T0 + BURST_MS);
    const trial = windows.clone(T0);
    trial.charge(2, T0, 0); // 10 of 12: a cost-3 request then waits for the steady window
    // (at least: the tried request stays unanswered, which holds the windows past their ends)
    expect(trial.earliestFit(3, T0, 0)).toBeGreaterThanOrEqual(T0 + STEADY_MS);
    expect(windows.earliestFit(3, T0, 0)).toBe(T0 + BURST_MS);
    expect(windows.view(T0).steady.used).toBe(8);
  });
});
