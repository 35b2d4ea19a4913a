/**
 * `npm run bench -- --debug`: where a client's time went, read from the simulator's own window
 * history (what the server admitted, not what the client believes). Per client and workload:
 * - the cost admitted per burst window (a histogram: `10×27 8×6` = 27 windows of 10, 6 of 8);
 * - time lost at boundaries: for each burst window after the first in its steady window, the gap
 *   between the previous burst window's end and its start (the server opens a window at the first
 *   admitted request after the last one ended, so any gap is time the client sent nothing while
 *   the steady window had room);
 * - the cost counted in all (500s included) and the 500s the server sent.
 */
import type { RunningSimulator } from "../simulator";

/** What `--debug` prints for one client on one workload. */
export interface Diagnosis {
  /** Cost admitted per burst window, in order (`10,10,8,...`), with ` | ` where a steady window turned. */
  readonly burstSequence: string;
  /** Cost admitted per burst window → number of such windows. */
  readonly burstFill: Record<string, number>;
  /** Burst windows that admitted something. */
  readonly burstWindows: number;
  /** Sum of the gaps between consecutive burst windows inside one steady window, ms. */
  readonly idleGapMs: number;
  /** The same gaps summed per steady window, ms (only the last steady window's delay the end). */
  readonly idleGapPerSteadyMs: number[];
  /** Largest such gap, ms. */
  readonly maxGapMs: number;
  /** Every such gap in order, ms, with `|` where a steady window turned. */
  readonly gapSequence: string;
  /** Starts of the steady windows, ms after the first one. */
  readonly steadyStartsMs: number[];
  /** Cost the server counted (every admitted request, 500s included). */
  readonly countedUnits: number;
  /** 500s the server answered. */
  readonly r500: number;
  /** From the harness's `go` to the first admitted request, ms (IPC, the first call's setup and trip). */
  readonly startMs: number;
  /** Of `startMs`: until the first worker heard `go` (IPC and scheduling, no client code). */
  readonly goDeliveryMs: number;
  /** From the last answer settled by the server to the harness's last `done`, ms (trip back, IPC). */
  readonly tailMs: number;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Reads `account`'s windows and log off the simulator after its run. */
export function diagnose(sim: RunningSimulator, account: string, run: { goAt: number; doneAt: number; goReceivedAt: number }): Diagnosis {
  const c = sim.windows(account).classes.C;
  if (!c)
    return {
      burstSequence: "",
      burstFill: {},
      burstWindows: 0,
      idleGapMs: 0,
      idleGapPerSteadyMs: [],
      maxGapMs: 0,
      gapSequence: "",
      steadyStartsMs: [],
      countedUnits: 0,
      r500: 0,
      startMs: 0,
      goDeliveryMs: 0,
      tailMs: 0,
    };
  const closed = (w: typeof c.burst) => [...w.history, ...(w.start !== null && w.used > 0 ? [{ start: w.start, used: w.used }] : [])];
  const bursts = closed(c.burst);
  const steadies = closed(c.steady);
  const origin = steadies[0]?.start ?? 0;
  const burstFill: Record<string, number> = {};
  for (const b of bursts) burstFill[String(b.used)] = (burstFill[String(b.used)] ?? 0) + 1;
  const sequence: string[] = [];
  for (let i = 0; i < bursts.length; i++) {
    if (i > 0 && steadies.some((s) => s.start > bursts[i - 1]!.start && s.start <= bursts[i]!.start)) sequence.push("|");
    sequence.push(String(bursts[i]!.used));
  }
  let idleGapMs = 0;
  let maxGapMs = 0;
  const perSteady: number[] = [0];
  const gaps: string[] = [];
  for (let i = 1; i < bursts.length; i++) {
    const prev = bursts[i - 1]!;
    const cur = bursts[i]!;
    // A gap that spans a steady window's start is the wait for the steady window, not lost time.
    const steadyTurned = steadies.some((s) => s.start > prev.start && s.start <= cur.start);
    if (steadyTurned) {
      perSteady.push(0);
      gaps.push("|");
      continue;
    }
    const gap = cur.start - (prev.start + c.burst.lengthMs);
    idleGapMs += gap;
    perSteady[perSteady.length - 1]! += gap;
    maxGapMs = Math.max(maxGapMs, gap);
    gaps.push(String(round(gap)));
  }
  const log = sim.requests(account);
  return {
    burstSequence: sequence.join(" "),
    burstFill,
    burstWindows: bursts.length,
    idleGapMs: round(idleGapMs),
    idleGapPerSteadyMs: perSteady.map(round),
    maxGapMs: round(maxGapMs),
    gapSequence: gaps.join(" "),
    steadyStartsMs: steadies.map((s) => round(s.start - origin)),
    countedUnits: steadies.reduce((sum, s) => sum + s.used, 0),
    r500: log.byStatus["500"] ?? 0,
    startMs: round(origin - run.goAt),
    goDeliveryMs: round(run.goReceivedAt - run.goAt),
    tailMs: round(run.doneAt - Math.max(...Object.values(log.operations).flatMap((o) => o.calls.map((c) => c.at)))),
  };
}

/** One line per client: `fill 10×27 8×6 | gaps 12.3 ms (max 2.1) | steady at 0,1500.4 | 300 units, 0 500s`. */
export function formatDiagnosis(workload: string, client: string, d: Diagnosis): string {
  const fill = Object.entries(d.burstFill)
    .sort((a, b) => Number(b[0]) - Number(a[0]))
    .map(([used, n]) => `${used}×${n}`)
    .join(" ");
  return (
    `${workload} ${client}: ${d.burstWindows} burst windows, fill ${fill}` +
    ` | idle gaps ${d.idleGapMs} ms (per steady window ${d.idleGapPerSteadyMs.join(", ")}; max ${d.maxGapMs})` +
    ` | steady windows at ${d.steadyStartsMs.join(", ")} ms` +
    ` | ${d.countedUnits} units counted, ${d.r500} 500s` +
    ` | start ${d.startMs} ms (go delivered after ${d.goDeliveryMs}), tail ${d.tailMs} ms` +
    `\n  windows: ${d.burstSequence}` +
    `\n  gaps ms: ${d.gapSequence}`
  );
}
