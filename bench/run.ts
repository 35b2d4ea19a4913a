/**
 * `npm run bench [-- --json] [-- --repeat 5] [-- --scale 0.025] [-- --only a-300-at-once] [-- --clients ours]`: every workload of
 * `workloads.ts` through our client and the two peers, against the simulator started in-process
 * with time scaled (`scale.ts`). Each client runs in child processes of its own (two for the
 * two-process workload), on an account of its own, so runs never share a window.
 *
 * Measured per run: wall time from `go` to the last `done`, its ratio to the physical bound
 * (`bound.ts`), the 429s the server sent (window and in-flight refusals, counted by the simulator),
 * calls given up, and peak RSS of the largest process.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { startSimulator } from "../simulator";
import { boundMs, shareOf, workloadBoundMs } from "./bound";
import { startNeighbour } from "./neighbour";
import { diagnose, formatDiagnosis } from "./diagnose";
import { CLIENT_NAMES, type ClientName, type WorkerConfig } from "./clients/types";
import { DEFAULT_SCALE, type Scale, scaleOf } from "./scale";
import { TIE_SHARE, WORKLOADS, type Targets, type Workload } from "./workloads";
import { foldRuns, type Spread } from "./repeat";
import type { WorkerMessage } from "./worker";
import { sharedStateDirectory, sharedStatePath } from "../provider/limiter/limiterStores";
import { accountKey } from "../provider/client/accountKey";
import { type RedisServer, startRedisServer } from "../tests/helpers/redisServer";

/**
 * One client's numbers on one workload (the JSON's `results.<client>`); with `--repeat N`, each the
 * median of N runs (`failures` the worst run's), and `spread` their min, median and max.
 */
interface ClientResult {
  runs?: number;
  spread?: Record<string, Spread>;
  seconds: number;
  /** This client's bound, s: the workload's, except with injected 500s (see `runWorkload`). */
  boundSeconds: number;
  ratio: number;
  r429: number;
  /** Of `r429`: refusals for too many in flight (`Retry-After: -1`, spec Limits 6). */
  r429InFlight: number;
  failures: number;
  rssMB: number;
  /** CPU time of the workload's worker processes from `go` to `done`, summed, ms (the simulator's is not in it). */
  cpuMs: number;
}

/** One workload's line of the JSON. */
interface WorkloadResult {
  name: string;
  description: string;
  processes: number;
  costUnits: number;
  boundSeconds: number;
  /** Quickest bare round trip to the simulator, ms (part of the in-flight bound only). */
  roundTripMs: number;
  results: Partial<Record<ClientName, ClientResult>>;
  /** The workload's targets, when it has some, and whether our client met them (`targetsMet`). */
  targets?: Targets;
  targetsMet?: boolean;
}

/** Whether our result meets `targets` (see `Targets`). */
function targetsMet(targets: Targets, results: Partial<Record<ClientName, ClientResult>>): boolean {
  const ours = results.ours;
  if (!ours) return false;
  return (
    ours.failures <= targets.maxFailures &&
    (targets.maxRatio === undefined || ours.ratio <= targets.maxRatio) &&
    (targets.maxWindow429s === undefined || ours.r429 - ours.r429InFlight <= targets.maxWindow429s) &&
    (targets.aheadOf ?? []).every((peer) => results[peer] === undefined || ours.seconds <= results[peer].seconds * (1 + TIE_SHARE)) &&
    (targets.fewerWindow429sThan ?? []).every((peer) => {
      const theirs = results[peer];
      return theirs === undefined || ours.r429 - ours.r429InFlight < theirs.r429 - theirs.r429InFlight;
    })
  );
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Forks one worker per config (each with its `envs` entry added to the environment), waits until all
 * are ready, starts them together; resolves when all are done.
 */
async function runProcesses(
  configs: WorkerConfig[],
  envs: readonly Readonly<Record<string, string>>[],
): Promise<{
  seconds: number;
  failures: number;
  maxRssKb: number;
  cpuMs: number;
  roundTripMs: number;
  goAt: number;
  doneAt: number;
  goReceivedAt: number;
}> {
  const children = configs.map((config, i) =>
    fork(`${__dirname}/worker.js`, [JSON.stringify(config)], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: { ...process.env, ...envs[i] },
    }),
  );
  const messages = children.map(
    (child) => (type: WorkerMessage["type"]) =>
      new Promise<WorkerMessage>((resolve, reject) => {
        const onMessage = (m: WorkerMessage) => {
          if (m.type !== type) return;
          child.off("message", onMessage);
          resolve(m);
        };
        child.on("message", onMessage);
        // 'exit' can overtake the worker's last IPC message: give it a moment to arrive first.
        child.once("exit", (code) => setTimeout(() => reject(new Error(`worker exited with ${code} before "${type}"`)), 200));
      }),
  );
  const ready = (await Promise.all(messages.map((next) => next("ready")))) as Extract<WorkerMessage, { type: "ready" }>[];
  const done = messages.map((next) => next("done"));
  const started = performance.now();
  for (const child of children) child.send({ type: "go" } satisfies WorkerMessage);
  const finished = (await Promise.all(done)) as Extract<WorkerMessage, { type: "done" }>[];
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  // The next run starts on a quiet machine: a worker still tearing down (a naive client's heap of
  // thousands of refused requests) would take CPU from the next client's first requests.
  await Promise.all(
    children.filter((child) => child.exitCode === null).map((child) => new Promise((resolve) => child.once("exit", resolve))),
  );
  for (const m of finished) if (m.error) process.stderr.write(`worker error: ${m.error}\n`);
  return {
    seconds,
    failures: finished.reduce((sum, m) => sum + m.failures, 0),
    maxRssKb: Math.max(...finished.map((m) => m.maxRssKb)),
    cpuMs: finished.reduce((sum, m) => sum + m.cpuMs, 0),
    roundTripMs: Math.min(...ready.map((m) => m.roundTripMs)),
    goAt: performance.timeOrigin + started,
    doneAt: performance.timeOrigin + ended,
    // The first worker to hear `go` (the first admission can come from either).
    goReceivedAt: Math.min(...finished.map((m) => m.goReceivedAt)),
  };
}

/**
 * Where the machines of f and g get their limits directories: beside the one our client picks by
 * default (`sharedStateDirectory` without `ADPLATFORM_LIMITS_DIR`: /dev/shm on Linux). A directory
 * on disk instead would make every look at the state file cost what it costs there, which no runner
 * pays by default (bench/README.md, "History").
 */
const limitsParent = dirname(sharedStateDirectory({}));

async function runWorkload(
  workload: Workload,
  scale: Scale,
  runId: string,
  debug: boolean,
  clients: readonly ClientName[],
): Promise<WorkloadResult> {
  const accounts = clients.map((client) => ({ account: client, token: `bench-${runId}-${workload.name}-${client}`, companyId: "7001" }));
  // One warm-up account per worker process (see `worker.ts`), apart from the measured ones.
  const warmUpToken = (token: string, process: number) => `${token}-warm-up-${process}`;
  const warmUpAccounts = accounts.flatMap(({ account, token }) =>
    Array.from({ length: workload.processes }, (_, i) => ({
      account: `${account}-warm-up-${i}`,
      token: warmUpToken(token, i),
      companyId: "7001",
    })),
  );
  const sim = await startSimulator({
    burstWindowMs: scale.limits.burstWindowMs,
    steadyWindowMs: scale.limits.steadyWindowMs,
    retryAfterUnitMs: scale.retryAfterUnitMs,
    maxInFlight: workload.maxInFlight,
    accounts: [...accounts, ...warmUpAccounts],
    faults: { errorRate: workload.errorRate, delayMs: scale.ms(workload.serviceDelayMs) },
  });
  // Machines sharing one Redis: a real redis-server for this workload, stopped with the simulator.
  let redis: RedisServer | undefined;
  const runs: {
    client: ClientName;
    measured: Awaited<ReturnType<typeof runProcesses>>;
    r429: number;
    r429InFlight: number;
    countedUnits: number;
  }[] = [];
  try {
    if (workload.sharing === "redis") redis = await startRedisServer();
    for (const { account: client, token } of accounts) {
      const configs = Array.from({ length: workload.processes }, (_, i): WorkerConfig => ({
        client,
        baseUrl: sim.url,
        token,
        requests: workload.requests,
        scaleFactor: scale.factor,
        warmUpToken: warmUpToken(token, i),
        serviceDelayMs: scale.ms(workload.serviceDelayMs),
        ...(redis ? { limitsUrl: redis.url } : {}),
        ...(workload.share !== undefined ? { share: workload.share } : {}),
      }));
      // Machines (sharing nothing, or only a Redis): a limits directory of their own each (`limitsParent`).
      const limitsDirs =
        workload.sharing !== "machine" ? configs.map(() => mkdtempSync(join(limitsParent, "adplatform-bench-limits-"))) : [];
      const envs = configs.map((_, i): Record<string, string> =>
        limitsDirs[i] !== undefined ? { ADPLATFORM_LIMITS_DIR: limitsDirs[i] } : {},
      );
      // Garbage of the previous runs (the simulator's log of a naive client's thousands of 429s) is
      // collected now, not in a pause during this run (`npm run bench` passes --expose-gc).
      (globalThis as { gc?: () => void }).gc?.();
      const neighbour =
        workload.neighbourEveryMs === undefined ? undefined : startNeighbour(sim.url, token, scale.ms(workload.neighbourEveryMs));
      const measured = await runProcesses(configs, envs).finally(async () => {
        await neighbour?.stop();
        for (const dir of limitsDirs) rmSync(dir, { recursive: true, force: true });
      });
      const windows = sim.windows(client);
      const diagnosis = diagnose(sim, client, measured);
      if (debug) process.stderr.write(`${formatDiagnosis(workload.name, client, diagnosis)}\n`);
      runs.push({
        client,
        measured,
        r429: (windows.classes.C?.rejected ?? 0) + windows.inFlight.rejected,
        r429InFlight: windows.inFlight.rejected,
        countedUnits: diagnosis.countedUnits,
      });
      for (const t of [token, ...configs.map((c) => c.warmUpToken!)]) rmSync(sharedStatePath(accountKey(sim.url, t)), { force: true });
    }
  } finally {
    await sim.close();
    await redis?.stop();
  }
  // One round trip for the workload: the quickest any of its processes measured (bound.ts).
  const roundTripMs = Math.min(...runs.map((r) => r.measured.roundTripMs));
  const bound = workloadBoundMs(workload, scale, roundTripMs) / 1000;
  const results: Partial<Record<ClientName, ClientResult>> = {};
  for (const { client, measured, r429, r429InFlight, countedUnits } of runs) {
    // With injected 500s the cost counted is random (one PRNG draw per request, and each client
    // draws its own sequence): each client is held to the bound of the cost the server actually
    // counted for it, so a lucky draw does not pass for a better limiter.
    const clientBound =
      workload.errorRate > 0 ? boundMs(Math.max(workload.requestUnits, countedUnits), shareOf(scale.limits, workload.share)) / 1000 : bound;
    results[client] = {
      seconds: round(measured.seconds),
      boundSeconds: round(clientBound),
      ratio: round(measured.seconds / clientBound),
      r429,
      r429InFlight,
      failures: measured.failures,
      rssMB: round(measured.maxRssKb / 1024, 1),
      cpuMs: round(measured.cpuMs, 0),
    };
  }
  return {
    name: workload.name,
    description: workload.description,
    processes: workload.processes,
    costUnits: workload.costUnits,
    boundSeconds: round(bound),
    roundTripMs: round(roundTripMs),
    results,
    ...(workload.targets ? { targets: workload.targets, targetsMet: targetsMet(workload.targets, results) } : {}),
  };
}

/** Runs of one workload as one line: each client's numbers folded (`repeat.ts`), targets judged on that. */
function foldWorkload(runs: readonly WorkloadResult[]): WorkloadResult {
  const first = runs[0]!;
  const results: Partial<Record<ClientName, ClientResult>> = {};
  for (const client of CLIENT_NAMES) {
    const ofClient = runs.map((run) => run.results[client]).filter((r): r is ClientResult => r !== undefined);
    if (ofClient.length > 0) results[client] = foldRuns(ofClient.map(({ runs: _runs, spread: _spread, ...numbers }) => numbers));
  }
  return {
    ...first,
    boundSeconds: foldRuns(runs.map((run) => ({ boundSeconds: run.boundSeconds }))).boundSeconds,
    roundTripMs: Math.min(...runs.map((run) => run.roundTripMs)),
    results,
    ...(first.targets ? { targets: first.targets, targetsMet: targetsMet(first.targets, results) } : {}),
  };
}

function table(results: WorkloadResult[], scale: Scale): string {
  const lines = [
    `${results[0]?.results.ours?.runs ?? 1} run(s) per workload; with several, each number is the median and the ratio shows min-max.`,
    `Scale ${scale.factor} (windows ${scale.limits.burstWindowMs} ms / ${scale.limits.steadyWindowMs} ms, ` +
      `limits ${scale.limits.burst}/${scale.limits.steady}): multiply seconds by ${round(1 / scale.factor, 1)} for platform seconds.`,
    "",
    "| workload | procs | bound s | client | s | ratio | 429s | failures | RSS MB | CPU ms | ours vs it |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const w of results) {
    for (const client of CLIENT_NAMES) {
      const r = w.results[client];
      if (!r) continue;
      const versus = client === "ours" || !w.results.ours ? "" : `${round(r.seconds / w.results.ours.seconds, 2)}× faster`;
      const ratio = r.spread?.ratio ? `${r.ratio} (${r.spread.ratio.min}-${r.spread.ratio.max})` : `${r.ratio}`;
      lines.push(
        `| ${w.name} | ${w.processes} | ${w.boundSeconds} | ${client} | ${r.seconds} | ${ratio} ` +
          `| ${r.r429} (${r.r429InFlight} in-flight) | ${r.failures} | ${r.rssMB} | ${r.cpuMs} | ${versus} |`,
      );
    }
  }
  for (const w of results) {
    if (w.targets) lines.push("", `${w.name}: targets ${JSON.stringify(w.targets)} ${w.targetsMet ? "met" : "NOT met"}`);
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: "boolean" },
      debug: { type: "boolean" },
      scale: { type: "string" },
      only: { type: "string" },
      clients: { type: "string" },
      repeat: { type: "string" },
    },
    strict: true,
  });
  const scale = scaleOf(values.scale ? Number(values.scale) : DEFAULT_SCALE);
  const runId = `${process.pid}-${Date.now()}`;
  const selected = WORKLOADS.filter((w) => !values.only || values.only.split(",").includes(w.name));
  // `--clients ours,naive`: a subset of the clients, to iterate on one quickly (the full run is the measurement).
  const clients = CLIENT_NAMES.filter((c) => !values.clients || values.clients.split(",").includes(c));
  const repeat = values.repeat === undefined ? 1 : Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat takes a whole number of runs, 1 or more; got ${values.repeat}`);
  const results: WorkloadResult[] = [];
  for (const workload of selected) {
    const runs: WorkloadResult[] = [];
    for (let i = 0; i < repeat; i++) runs.push(await runWorkload(workload, scale, `${runId}-${i}`, values.debug === true, clients));
    const result = repeat === 1 ? runs[0]! : foldWorkload(runs);
    results.push(result);
    if (!values.json) process.stdout.write(`done: ${workload.name}\n`);
  }
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({
        scale: scale.factor,
        burstWindowMs: scale.limits.burstWindowMs,
        steadyWindowMs: scale.limits.steadyWindowMs,
        workloads: results,
      })}\n`,
    );
  } else {
    process.stdout.write(`${table(results, scale)}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
