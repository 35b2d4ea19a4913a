/**
 * Several processes of one machine on one account, at the platform's real windows, behind a
 * network whose latency jitters: four Node.js processes, each with its own client from the built
 * package (`getApiClient`, as the program and the plugin processes of a `pulumi up` have), share
 * the account's limits the way processes of one machine do (one limits directory), and reach the
 * simulator through a loopback proxy that holds each request and each answer an independent random
 * 0-100 ms (`tests/helpers/delayingProxy.ts`). The server must send no 429 at all, and the last
 * request must land within 2% of the physical bound of the cost it counted.
 *
 * 4 × 75 reads are 300 cost units of class C: two steady windows, a bound of 74 s, the large
 * stack of docs/ci-and-rate-limits.md. The bound is a speed goal of the real client at real scale,
 * which is why it lives here and not in the unit suites.
 *
 * `ADPLATFORM_CLIENT_BIN` runs the processes on another build's `bin/` (default this checkout's),
 * so one build can be measured against another back to back on one machine.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { boundMs } from "../../bench/bound";
import { SEED_IDS, startSimulator, type LoggedCall, type RunningSimulator } from "../../simulator";
import { type DelayingProxy, startDelayingProxy } from "../helpers/delayingProxy";
import { nodeScriptJson } from "../helpers/nodeScript";
import { REPO_ROOT, TOKEN, CLASS_C_AT_REAL_WINDOWS } from "./harness";

const PROCESSES = 4;
const CALLS_PER_PROCESS = 75;
/** Each request's and each answer's delay is drawn from 0 to this, ms. */
const MAX_DELAY_MS = 100;

/** The built package whose client the processes run. */
const CLIENT_MODULE = path.join(process.env.ADPLATFORM_CLIENT_BIN ?? path.join(REPO_ROOT, "bin"), "provider", "client", "index.js");

/** 74 s of windows, plus four processes starting on a loaded machine. */
jest.setTimeout(180_000);

/**
 * One process, plain Node: its client (the limits directory comes from `ADPLATFORM_LIMITS_DIR`)
 * calls `getZone` `count` times at once, waits until its last decisions reached the shared state
 * (`flush`, where the build has it), and prints how many calls failed and why.
 */
const WORKER = `
const [clientModule, baseUrl, token, count, zoneId] = process.argv.slice(1);
const { getApiClient } = require(clientModule);
const client = getApiClient({ baseUrl, token });
const calls = Array.from({ length: Number(count) }, () => client.call("getZone", { pathParams: { id: zoneId } }));
Promise.allSettled(calls).then(async (outcomes) => {
  await client.limiter.flush?.();
  const errors = outcomes.filter((o) => o.status === "rejected").map((o) => String(o.reason));
  process.stdout.write(JSON.stringify({ errors }));
  process.exit(0);
});
`;

/** Runs one process to its end; resolves with the errors of its failed calls. */
async function runProcess(baseUrl: string, limitsDir: string): Promise<string[]> {
  const args = [CLIENT_MODULE, baseUrl, TOKEN, String(CALLS_PER_PROCESS), SEED_IDS.zones.display];
  const { errors } = await nodeScriptJson<{ errors: string[] }>("a process", WORKER, args, {
    env: { ...process.env, ADPLATFORM_LIMITS_DIR: limitsDir },
  });
  return errors;
}

let sim: RunningSimulator;
let proxy: DelayingProxy;
let limitsDir: string;

beforeAll(async () => {
  if (!fs.existsSync(CLIENT_MODULE)) throw new Error(`${CLIENT_MODULE} is missing: run npm run build first`);
  sim = await startSimulator({ port: 0 });
  proxy = await startDelayingProxy(sim.url, MAX_DELAY_MS);
  limitsDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-jittery-limits-"));
});

afterAll(async () => {
  await proxy?.close();
  await sim?.close();
  if (limitsDir !== undefined) fs.rmSync(limitsDir, { recursive: true, force: true });
});

/** Every call of the demo account's log, in arrival order. */
function allCalls(): LoggedCall[] {
  return Object.values(sim.requests().operations)
    .flatMap((op) => op.calls)
    .sort((a, b) => a.seq - b.seq);
}

test("four processes behind a jittering network: no 429, the last request within 2% of the bound", async () => {
  const errors = await Promise.all(Array.from({ length: PROCESSES }, () => runProcess(proxy.url, limitsDir)));

  expect(errors.flat()).toEqual([]);
  const calls = allCalls();
  const requests = sim.requests();
  // Each call was answered once, and the proxy held every request and answer: the jitter was there.
  expect(calls).toHaveLength(PROCESSES * CALLS_PER_PROCESS);
  expect(proxy.delays.requests).toHaveLength(calls.length);
  expect(proxy.delays.answers).toHaveLength(calls.length);
  expect(Math.max(...proxy.delays.requests, ...proxy.delays.answers)).toBeGreaterThan(MAX_DELAY_MS / 2);

  const counted = calls.reduce((sum, call) => sum + call.cost, 0);
  const bound = boundMs(counted, CLASS_C_AT_REAL_WINDOWS);
  const times = calls.map((call) => call.at);
  const elapsed = Math.max(...times) - Math.min(...times);
  const refused = requests.byStatus["429"] ?? 0;
  // Printed for the log of every run (bench/README.md keeps the measured figures).
  process.stdout.write(
    `jitteryNetwork (${CLIENT_MODULE}): cost ${counted} in ${(elapsed / 1000).toFixed(2)} s, bound ${(bound / 1000).toFixed(1)} s ` +
      `(ratio ${(elapsed / bound).toFixed(4)}), ${refused} 429s, load ${os.loadavg()[0]!.toFixed(2)}\n`,
  );
  // No 429 of either kind: the four processes kept one set of windows and one in-flight cap.
  expect(refused).toBe(0);
  expect(counted).toBe(PROCESSES * CALLS_PER_PROCESS);
  expect(elapsed).toBeGreaterThanOrEqual(bound - CLASS_C_AT_REAL_WINDOWS.burstWindowMs);
  expect(elapsed).toBeLessThanOrEqual(1.02 * bound);
});
