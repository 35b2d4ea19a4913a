/**
 * Four machines on one account sharing their limits and their create journal through the Redis
 * set-ups teams run beyond one server (tests/helpers/redisTopologies.ts, real processes on
 * loopback), through the real CLI and the Node.js language host: four stacks, `pulumi up` of all at
 * once, each with its own Pulumi home, backend and limits directory, as four CI runners share
 * nothing but the limits URL (bench workload g's shape, at the platform's real windows).
 *
 * - A Redis Cluster of three primaries with a replica each (`redis+cluster://`), and a primary with
 *   a replica watched by three Sentinels (`redis+sentinel://`): no 429 at all, the last request
 *   within 10% of the physical bound.
 * - The same with the primary holding the account killed once a third of the calls are answered
 *   (the cluster promotes its replica; the sentinels promote theirs): no run fails, no object is
 *   created twice, the runs share again afterwards (the account's state on the new primary is
 *   written after the failover, and every plugin that left Redis said so once and that it was back
 *   once), and the last request lands within 10% of the bound. The 429s of the moments apart are
 *   the server's to refuse and the retries' to absorb.
 * - One server killed a third of the way in and started again empty 5 s later: no run fails, no
 *   object is created twice, the last request lands within 10% of the bound, and no window 429
 *   arrives more than 10 s after it is back: what each process learned while apart is carried into
 *   the empty state, each machine's spend counted once (docs/rate-limiter.md, "Where it is shared").
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Cluster, Redis } from "ioredis";
import { boundMs } from "../../bench/bound";
import { accountKey } from "../../provider/client/accountKey";
import { resolveConnection } from "../../provider/client/connection";
import { sharedStateName } from "../../provider/limiter/limiterStores";
import { redisStateKey } from "../../provider/limiter/redisLimiterStore";
import { openCliSession, type CliResult, type CliSession } from "../../scripts/driver/cliSession";
import { startSimulator, type LoggedCall, type RunningSimulator } from "../../simulator";
import { type RedisCluster, type RedisSentinelSet, startRedisCluster, startRedisSentinel } from "../helpers/redisTopologies";
import { type RedisProcess, startRedisProcess } from "../helpers/redisServer";
import { TOKEN, pulumiIn, CLASS_C_AT_REAL_WINDOWS, useStrategiesProject } from "./harness";

/** Resources per stack: four stacks together past one steady window (150) of class C. */
const PER_STACK = 40;
const MACHINES = 4;
const PASSWORD = "topology pw";

/** One case: a steady window at real scale, the CLI's start-up of four stacks on a loaded machine, a failover. */
jest.setTimeout(300_000);

const project = useStrategiesProject("adplatform-topologies", "Four machines on one account", PER_STACK);
const cleanups = project.cleanups;

/** `MACHINES` machines on a simulator of their own, each with a stack pointed at it and at `limitsUrl`. */
async function machines(
  limitsUrl: string,
  prefix: string,
): Promise<{ sim: RunningSimulator; stacks: { cli: CliSession; stack: string }[] }> {
  const sim = await startSimulator({ port: 0 });
  cleanups.push(() => sim.close());
  const stacks = [];
  for (let i = 0; i < MACHINES; i++) {
    const limitsDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-limits-"));
    const cli = openCliSession(project.dir, {
      extraEnv: { ADPLATFORM_LIMITS_DIR: limitsDir, ADPLATFORM_LIMITS_URL: limitsUrl },
    });
    cleanups.push(() => {
      cli.close();
      fs.rmSync(limitsDir, { recursive: true, force: true });
    });
    const stack = `${prefix}-${i}`;
    await pulumiIn(cli, ["stack", "init", stack]);
    await pulumiIn(cli, ["config", "set", "--stack", stack, "adplatform:baseUrl", sim.url]);
    await pulumiIn(cli, ["config", "set", "--stack", stack, "--secret", "adplatform:token", TOKEN]);
    stacks.push({ cli, stack });
  }
  return { sim, stacks };
}

/** `pulumi up` of every stack at once. */
function upAll(stacks: { cli: CliSession; stack: string }[]): Promise<CliResult[]> {
  return Promise.all(stacks.map(({ cli, stack }) => cli.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])));
}

function allCalls(sim: RunningSimulator): LoggedCall[] {
  return Object.values(sim.requests().operations)
    .flatMap((op) => op.calls)
    .sort((a, b) => a.seq - b.seq);
}

/** Every run succeeded, every stack's strategies exist once, and no create was answered twice. */
function expectEveryObjectOnce(sim: RunningSimulator, stacks: { stack: string }[], results: CliResult[]): void {
  for (const result of results) {
    if (result.code !== 0) throw new Error(`pulumi up exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    expect(result.stdout).toMatch(new RegExp(`\\+ ${PER_STACK + 1} created`));
    expect(result.stdout).not.toContain(PASSWORD);
  }
  for (const { stack } of stacks) {
    expect(sim.state().bidStrategies.filter((s) => String(s.name).startsWith(`${stack} bids `))).toHaveLength(PER_STACK);
  }
  const created = allCalls(sim).filter((call) => call.method === "POST" && typeof call.status === "number" && call.status < 300);
  expect(created).toHaveLength(MACHINES * PER_STACK);
}

/** The span from the first answer to the last, against the bound of the cost the server counted. */
function expectWithinBound(sim: RunningSimulator, label: string): void {
  const calls = allCalls(sim);
  const counted = calls.reduce((sum, call) => sum + call.cost, 0);
  const times = calls.map((call) => call.at);
  const elapsed = Math.max(...times) - Math.min(...times);
  const bound = boundMs(counted, CLASS_C_AT_REAL_WINDOWS);
  process.stdout.write(
    `${label}: cost ${counted} in ${(elapsed / 1000).toFixed(1)} s, bound ${(bound / 1000).toFixed(1)} s ` +
      `(ratio ${(elapsed / bound).toFixed(3)}), ${sim.requests().byStatus["429"] ?? 0} 429s\n`,
  );
  expect(counted).toBeGreaterThan(CLASS_C_AT_REAL_WINDOWS.steady);
  expect(elapsed).toBeLessThanOrEqual(1.1 * bound);
}

/**
 * `pulumi up` of every stack at once, with `failover` run once a third of the calls are answered;
 * resolves with the runs and when the failover was done (runs that end before a third fail the
 * test with their output, rather than leave it waiting for a third that never comes).
 */
async function upAllFailingOverAtAThird(
  sim: RunningSimulator,
  stacks: { cli: CliSession; stack: string }[],
  failover: () => Promise<void>,
): Promise<[CliResult[], number]> {
  let ended = false;
  const runs = upAll(stacks).finally(() => (ended = true));
  while (!ended && allCalls(sim).length < (MACHINES * PER_STACK) / 3) await new Promise((resolve) => setTimeout(resolve, 50));
  if (ended) {
    const results = await runs;
    throw new Error(`the runs ended before a third of the calls:\n${results.map((r) => r.stdout + r.stderr).join("\n")}`);
  }
  await failover();
  const failedOverAt = Date.now();
  return [await runs, failedOverAt];
}

/**
 * Each process of a run (the plugin, and the program, which removes journal entries once the engine
 * has their ids) said at most once that it left Redis and at most once that it was back, in the
 * run's summary of diagnostics, which lists each message once. Whether a process leaves at all
 * depends on where its commands were when the primary went (a cluster client may follow the slot
 * to the promoted replica without a failure), and one that left during its last call has nothing
 * to come back for: that sharing resumed is what the promoted primary holds.
 */
function expectLeftAndBackOnce(results: CliResult[]): void {
  const counts = results.map((result) => {
    const summary = result.stdout.slice(result.stdout.indexOf("\nDiagnostics:"), result.stdout.indexOf("\nResources:"));
    return { left: summary.match(/is not used: /g)?.length ?? 0, back: summary.match(/answers again/g)?.length ?? 0 };
  });
  process.stdout.write(`left and back, per run: ${JSON.stringify(counts)}\n`);
  for (const { left, back } of counts) expect({ left: left <= 2, back: back <= left }).toEqual({ left: true, back: true });
}

/** The account's limiter state key, as every plugin names it. */
function stateKeyOf(sim: RunningSimulator): string {
  const { baseUrl, token } = resolveConnection({ baseUrl: sim.url, token: TOKEN });
  return redisStateKey(sharedStateName(accountKey(baseUrl, token)));
}

/** The latest time in the account's state on `primary`: when its last burst window opened. */
async function lastOpened(primary: Redis, key: string): Promise<number> {
  const state = JSON.parse((await primary.hget(key, "s"))!) as { classes: Record<string, { burst: { opened: number } }> };
  return Math.max(...Object.values(state.classes).map((windows) => windows.burst.opened));
}

describe("a Redis Cluster of three primaries with a replica each", () => {
  let cluster: RedisCluster;
  let url: string;
  beforeAll(async () => {
    cluster = await startRedisCluster({ primaries: 3, replicasPerPrimary: 1, password: PASSWORD });
    cleanups.push(() => cluster.stop());
    url = `redis+cluster://:${encodeURIComponent(PASSWORD)}@${cluster.shards.map((shard) => `127.0.0.1:${shard.primary.port}`).join(",")}`;
  }, 120_000);

  test("four machines: no 429, the last request within 10% of the bound", async () => {
    const { sim, stacks } = await machines(url, "cluster");
    const results = await upAll(stacks);
    expectEveryObjectOnce(sim, stacks, results);
    expect(sim.requests().byStatus["429"] ?? 0).toBe(0);
    expectWithinBound(sim, "four machines, Redis Cluster");
  });

  test("the primary holding the account fails over mid-run: nothing fails or is created twice, sharing resumes", async () => {
    const { sim, stacks } = await machines(url, "cluster-failover");
    const key = stateKeyOf(sim);
    const client = new Cluster([...cluster.nodes], { redisOptions: { password: PASSWORD } });
    const shard = cluster.shardOf(Number(await client.cluster("KEYSLOT", key)));
    client.disconnect();
    const [results, failedOverAt] = await upAllFailingOverAtAThird(sim, stacks, async () => void (await cluster.failover(shard)));
    expectEveryObjectOnce(sim, stacks, results);
    expectLeftAndBackOnce(results);
    const primary = new Redis({ ...cluster.shards[shard]!.primary, password: PASSWORD });
    try {
      expect(await lastOpened(primary, key)).toBeGreaterThan(failedOverAt);
    } finally {
      primary.disconnect();
    }
    expectWithinBound(sim, "four machines, Redis Cluster, a failover");
  });
});

describe("a primary, a replica and three sentinels", () => {
  let set: RedisSentinelSet;
  let url: string;
  beforeAll(async () => {
    set = await startRedisSentinel({ replicas: 1, sentinels: 3, password: PASSWORD });
    cleanups.push(() => set.stop());
    url = `redis+sentinel://:${encodeURIComponent(PASSWORD)}@${set.sentinels.map((s) => `127.0.0.1:${s.port}`).join(",")}/${set.name}`;
  }, 120_000);

  test("four machines: no 429, the last request within 10% of the bound", async () => {
    const { sim, stacks } = await machines(url, "sentinel");
    const results = await upAll(stacks);
    expectEveryObjectOnce(sim, stacks, results);
    expect(sim.requests().byStatus["429"] ?? 0).toBe(0);
    expectWithinBound(sim, "four machines, Sentinel");
  });

  test("the primary fails over mid-run: nothing fails or is created twice, writes follow the promoted replica", async () => {
    const { sim, stacks } = await machines(url, "sentinel-failover");
    const [results, failedOverAt] = await upAllFailingOverAtAThird(sim, stacks, async () => void (await set.failover()));
    expectEveryObjectOnce(sim, stacks, results);
    expectLeftAndBackOnce(results);
    const primary = new Redis({ ...set.primary, password: PASSWORD });
    try {
      expect(await lastOpened(primary, stateKeyOf(sim))).toBeGreaterThan(failedOverAt);
    } finally {
      primary.disconnect();
    }
    expectWithinBound(sim, "four machines, Sentinel, a failover");
  });
});

describe("one server, killed a third of the way in and started again empty", () => {
  test("nothing fails or is created twice, no 429 10 s after it is back, the last request within 10% of the bound", async () => {
    const args = ["--requirepass", PASSWORD];
    const first = await startRedisProcess({ args });
    let second: RedisProcess | undefined;
    cleanups.push(async () => {
      await first.stop();
      await second?.stop();
    });
    const { sim, stacks } = await machines(`redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${first.port}`, "restarted");
    const [results, backAt] = await upAllFailingOverAtAThird(sim, stacks, async () => {
      await first.kill();
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      second = await startRedisProcess({ args, port: first.port });
    });
    expectEveryObjectOnce(sim, stacks, results);
    const late = allCalls(sim).filter((call) => call.status === 429 && call.at > backAt + 10_000);
    process.stdout.write(`restarted empty: ${sim.requests().byStatus["429"] ?? 0} 429s, ${late.length} more than 10 s after it was back\n`);
    expect(late.map((call) => `${call.method} ${call.path} at ${call.at - backAt} ms`)).toEqual([]);
    expectWithinBound(sim, "four machines, one Redis restarted empty");
  });
});
