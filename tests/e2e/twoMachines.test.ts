/**
 * Two machines, one account, through the real CLI and the Node.js language host: two stacks of one
 * program, `pulumi up` of both at once against one simulator account. Each stack has its own Pulumi
 * home and backend and its own `ADPLATFORM_LIMITS_DIR`, as two CI runners share nothing.
 *
 * - Sharing nothing, the two clients cannot see each other and the server refuses some requests
 *   with 429: both runs still succeed, since a 429 is retried while the retry time budget lasts.
 * - Both pointing at one Redis (`ADPLATFORM_LIMITS_URL`): they share the account's windows, so the
 *   server sends no window 429 and the last request lands within 10% of the physical bound.
 *
 * The client's window lengths are the platform's (1 s / 60 s) and cannot be scaled from outside the
 * plugin process, so the simulator runs at real scale. To keep the suite near two minutes, its class
 * C limits are lowered (burst 5, steady 20) and each stack creates 20 resources: 40 requests cross
 * into a second steady window, as 300 do at the platform's limits. The client learns the lower
 * limits from the `X-RateLimit-*` headers; the burst divides the steady limit, so it cannot send past
 * the steady limit before the headers describe that window.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { boundMs, type WindowLimits } from "../../bench/bound";
import {
  requireLanguageHost,
  linkRepositoryPackage,
  openCliSession,
  writeTypeScriptProgram,
  type CliResult,
  type CliSession,
} from "../../scripts/driver/cliSession";
import { startSimulator, type LoggedCall, type RunningSimulator } from "../../simulator";
import { startRedisServer, type RedisServer } from "../helpers/redisServer";
import { TOKEN } from "./harness";

/** Resources per stack. */
const PER_STACK = 20;

/** The simulator's class C limits and the platform's window lengths (spec, Limits 1-3). */
const LIMITS: WindowLimits = { burst: 5, steady: 20, burstWindowMs: 1000, steadyWindowMs: 60_000 };

/** Two runs at real scale, each past one steady window, plus the CLI's start-up on a loaded machine. */
jest.setTimeout(300_000);

/** The program: `PER_STACK` strategies, named by stack so the two stacks' records stay apart. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

const stack = pulumi.getStack();
for (let i = 0; i < ${PER_STACK}; i++) {
  new adp.BidStrategy(\`bids-\${i}\`, { name: \`\${stack} bids \${i}\`, strategy: "percent_add", value: 10 + i, maxValue: 3 });
}
`;

let workDir: string;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(() => {
  requireLanguageHost();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-twomachines-"));
  writeTypeScriptProgram(workDir, { name: "adplatform-twomachines", description: "Two machines on one account", index: PROGRAM });
  // npm run test:e2e builds the package first; the links reach it without an install.
  linkRepositoryPackage(workDir);
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (workDir !== undefined) fs.rmSync(workDir, { recursive: true, force: true });
});

/** A simulator of its own for one case, at real scale with the lowered limits. */
async function simulator(): Promise<RunningSimulator> {
  const sim = await startSimulator({ port: 0, limits: { C: { burst: LIMITS.burst, steady: LIMITS.steady } } });
  cleanups.push(() => sim.close());
  return sim;
}

/** A machine: its own Pulumi home and backend, its own limits directory, and `env` on every command. */
function machine(env: Record<string, string> = {}): CliSession {
  const limitsDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-limits-"));
  const cli = openCliSession(workDir, { extraEnv: { ADPLATFORM_LIMITS_DIR: limitsDir, ...env } });
  cleanups.push(() => {
    cli.close();
    fs.rmSync(limitsDir, { recursive: true, force: true });
  });
  return cli;
}

/** Runs `pulumi <args>`; a non-zero exit throws with the command's output. */
async function pulumi(cli: CliSession, args: string[]): Promise<CliResult> {
  const result = await cli.pulumi(args);
  if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** Makes stack `name` on `cli`'s backend, pointed at `sim` with the demo account's token. */
async function initStack(cli: CliSession, name: string, sim: RunningSimulator): Promise<void> {
  await pulumi(cli, ["stack", "init", name]);
  await pulumi(cli, ["config", "set", "--stack", name, "adplatform:baseUrl", sim.url]);
  await pulumi(cli, ["config", "set", "--stack", name, "--secret", "adplatform:token", TOKEN]);
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
  const created = allCalls(sim).filter((call) => call.method === "POST" && typeof call.status === "number" && call.status < 300);
  expect(created).toHaveLength(2 * PER_STACK);
});

test("two machines sharing one Redis: both succeed, no window 429, the last request within 10% of the bound", async () => {
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
  const windows = sim.windows();
  expect(windows.classes.C?.rejected ?? 0).toBe(0);
  expect(sim.requests().byStatus["429"] ?? 0).toBe(windows.inFlight.rejected);
  const calls = allCalls(sim);
  const admitted = calls.filter((call) => call.cost > 0);
  expect(admitted).toHaveLength(2 * PER_STACK);
  const bound = boundMs(2 * PER_STACK, LIMITS);
  const times = calls.map((call) => call.at);
  const elapsed = Math.max(...times) - Math.min(...times);
  expect(elapsed).toBeGreaterThanOrEqual(bound - LIMITS.burstWindowMs);
  expect(elapsed).toBeLessThanOrEqual(1.1 * bound);
});
