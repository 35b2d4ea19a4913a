/**
 * Two machines, one account, through the real CLI and the Node.js language host: two stacks of one
 * program, `pulumi up` of both at once against one simulator account. Each stack has its own Pulumi
 * home and backend and its own `ADPLATFORM_LIMITS_DIR`, as two CI runners share nothing.
 *
 * - Sharing nothing, the two clients cannot see each other and the server refuses some requests
 *   with 429: both runs still succeed, since a 429 is retried while the retry time budget lasts.
 * - Both pointing at one Redis (`ADPLATFORM_LIMITS_URL`): they share the account's windows and
 *   in-flight cap, so the server sends no 429 at all and the last request lands within 10% of the
 *   physical bound, derived from the cost the server counted.
 *
 * The client's window lengths are the platform's (1 s / 60 s) and cannot be scaled from outside the
 * plugin process, so the simulator runs at real scale, with the catalog's own limits (class C: 10
 * per second, 150 per minute). Lowering them to shorten the suite would make the Redis case depend
 * on timing: the client starts from the catalog's limits and learns a lower one only from the
 * `X-RateLimit-*` headers, which describe the steady window only once it is the tighter one, so a
 * start slow enough to leave a burst window part-empty lets one flight of requests pass the lowered
 * steady limit before any header has named it. At the catalog's limits the client knows both from
 * the start, and 80 resources per stack (160 requests) still cross into a second steady window, as
 * the 300 of a large deploy do: the bound is one steady window, 60 s.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { boundMs } from "../../bench/bound";
import { openCliSession, type CliResult, type CliSession } from "../../scripts/driver/cliSession";
import { startSimulator, type LoggedCall, type RunningSimulator } from "../../simulator";
import { startRedisServer, type RedisServer } from "../helpers/redisServer";
import { TOKEN, pulumiIn, CLASS_C_AT_REAL_WINDOWS, useStrategiesProject } from "./harness";

/** Resources per stack: together past one steady window (150) of class C. */
const PER_STACK = 80;

/** One case: a steady window at real scale, plus the CLI's start-up on a loaded machine. */
jest.setTimeout(240_000);

const project = useStrategiesProject("adplatform-twomachines", "Two machines on one account", PER_STACK);
const cleanups = project.cleanups;

/** A simulator of its own for one case, at real scale with the catalog's limits. */
async function simulator(): Promise<RunningSimulator> {
  const sim = await startSimulator({ port: 0 });
  cleanups.push(() => sim.close());
  return sim;
}

/** A machine: its own Pulumi home and backend, its own limits directory, and `env` on every command. */
function machine(env: Record<string, string> = {}): CliSession {
  const limitsDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-limits-"));
  const cli = openCliSession(project.dir, { extraEnv: { ADPLATFORM_LIMITS_DIR: limitsDir, ...env } });
  cleanups.push(() => {
    cli.close();
    fs.rmSync(limitsDir, { recursive: true, force: true });
  });
  return cli;
}

/** Makes stack `name` on `cli`'s backend, pointed at `sim` with the demo account's token. */
async function initStack(cli: CliSession, name: string, sim: RunningSimulator): Promise<void> {
  await pulumiIn(cli, ["stack", "init", name]);
  await pulumiIn(cli, ["config", "set", "--stack", name, "adplatform:baseUrl", sim.url]);
  await pulumiIn(cli, ["config", "set", "--stack", name, "--secret", "adplatform:token", TOKEN]);
}

/** `pulumi up` of both stacks at once; resolves with both results (never rejects on an exit code). */
async function upBoth(machines: { cli: CliSession; stack: string }[]): Promise<CliResult[]> {
  return Promise.all(machines.map(({ cli, stack }) => cli.pulumi(["up", "--yes", "--skip-preview", "--stack", stack])));
}

/** Every call of the demo account's log, in arrival order. */
function allCalls(sim: RunningSimulator): LoggedCall[] {
  return Object.values(sim.requests().operations)
    .flatMap((op) => op.calls)
    .sort((a, b) => a.seq - b.seq);
}

/** The strategies of stack `stack` the account holds. */
function strategiesOf(sim: RunningSimulator, stack: string): unknown[] {
  return sim.state().bidStrategies.filter((s) => String(s.name).startsWith(`${stack} bids `));
}

/** Fails with both runs' output when one of them did not succeed. */
function expectSucceeded(results: CliResult[]): void {
  for (const result of results) {
    if (result.code !== 0) throw new Error(`pulumi up exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    // The strategies and the stack itself.
    expect(result.stdout).toMatch(new RegExp(`\\+ ${PER_STACK + 1} created`));
  }
}

/** The cost the server counted, its physical bound, and the span from the first answer to the last. */
function spanAgainstBound(sim: RunningSimulator): { counted: number; bound: number; elapsed: number } {
  const calls = allCalls(sim);
  const counted = calls.reduce((sum, call) => sum + call.cost, 0);
  const times = calls.map((call) => call.at);
  return { counted, bound: boundMs(counted, CLASS_C_AT_REAL_WINDOWS), elapsed: Math.max(...times) - Math.min(...times) };
}

test("two machines sharing nothing: both runs succeed, whatever 429s the server sent", async () => {
  const sim = await simulator();
  const machines = [
    { cli: machine(), stack: "alone-a" },
    { cli: machine(), stack: "alone-b" },
  ];
  for (const { cli, stack } of machines) await initStack(cli, stack, sim);

  const results = await upBoth(machines);

  expectSucceeded(results);
  for (const { stack } of machines) expect(strategiesOf(sim, stack)).toHaveLength(PER_STACK);
  // Every create was sent until it succeeded, and none twice: a 429 is refused before any work.
  const created = allCalls(sim).filter((call) => call.method === "POST" && typeof call.status === "number" && call.status < 300);
  expect(created).toHaveLength(2 * PER_STACK);
  // Printed, not asserted: how close two machines that share nothing come to the bound is a
  // performance figure (`npm run bench`, workload f), but a regression should show in CI's log.
  const { counted, bound, elapsed } = spanAgainstBound(sim);
  process.stdout.write(
    `twoMachines, sharing nothing: cost ${counted} in ${(elapsed / 1000).toFixed(1)} s, bound ${(bound / 1000).toFixed(1)} s ` +
      `(ratio ${(elapsed / bound).toFixed(3)}), ${sim.requests().byStatus["429"] ?? 0} 429s\n`,
  );
});

test("two machines sharing one Redis: both succeed, no 429, the last request within 10% of the bound", async () => {
  const redis: RedisServer = await startRedisServer();
  cleanups.push(() => redis.stop());
  const sim = await simulator();
  const machines = [
    { cli: machine({ ADPLATFORM_LIMITS_URL: redis.url }), stack: "shared-a" },
    { cli: machine({ ADPLATFORM_LIMITS_URL: redis.url }), stack: "shared-b" },
  ];
  for (const { cli, stack } of machines) await initStack(cli, stack, sim);

  const results = await upBoth(machines);

  expectSucceeded(results);
  for (const { stack } of machines) expect(strategiesOf(sim, stack)).toHaveLength(PER_STACK);
  // No 429 of either kind: the two plugins kept one set of windows and one in-flight cap.
  expect(sim.requests().byStatus["429"] ?? 0).toBe(0);
  // The bound of the cost the server counted, from the first answer to the last.
  const { counted, bound, elapsed } = spanAgainstBound(sim);
  expect(counted).toBeGreaterThan(CLASS_C_AT_REAL_WINDOWS.steady);
  expect(elapsed).toBeGreaterThanOrEqual(bound - CLASS_C_AT_REAL_WINDOWS.burstWindowMs);
  expect(elapsed).toBeLessThanOrEqual(1.1 * bound);
});
