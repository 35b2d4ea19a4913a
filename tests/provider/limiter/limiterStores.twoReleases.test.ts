/**
 * Processes of two releases on one account, as during a rollout: today's build and a copy of it
 * whose limiter state format (`LIMITER_STATE_VERSION`) is bumped, two processes of each, run at
 * once against one simulator, sharing one limits directory and, in the second case, one Redis.
 * The format is in the state's name, so each release keeps a state of its own that the other never
 * reads: every call of both succeeds (what the releases do not share, the server's 429s and the
 * retries absorb), no process crashes or warns, and the store ends up holding one state per
 * release, each readable, with no request left in flight.
 *
 * Windows are the spec's scaled by 1/10 (100 ms and 6 s), `Retry-After` in tenths of a second to
 * match. Only outcomes are asserted, never durations.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { accountKey } from "../../../provider/client/accountKey";
import { LIMITER_STATE_VERSION } from "../../../provider/limiter/limiterState";
import { parseState, sharedStateName } from "../../../provider/limiter/limiterStores";
import { SEED_IDS, startSimulator, type RunningSimulator } from "../../../simulator";
import { runNodeScript } from "../../helpers/nodeScript";
import { useRedisServer } from "../../helpers/redisServer";

const TOKEN = "demo-token";
const WINDOWS = { burstWindowMs: 100, steadyWindowMs: 6_000 } as const;
/** Per process: four processes' calls together stay within one steady window (150). */
const CALLS = 25;
const BUMPED = LIMITER_STATE_VERSION + 1;
const REPO_ROOT = path.resolve(__dirname, "../../..");

// Four child processes start slowly on a loaded machine; never asserted.
jest.setTimeout(120_000);

/**
 * One process of a release, plain Node: its client (the limits directory and URL from the
 * environment, as users set them) calls `getZone` `count` times at once, waits until its last
 * decisions reached the shared state, and prints the errors of the calls that failed.
 */
const WORKER = `
const [clientModule, baseUrl, token, count, zoneId, windows] = process.argv.slice(1);
const { getApiClient } = require(clientModule);
const client = getApiClient({
  baseUrl,
  token,
  limiterOptions: JSON.parse(windows),
  retryOptions: { baseDelayMs: 25, maxDelayMs: 2000, maxTotalMs: 60000 },
});
const calls = Array.from({ length: Number(count) }, () => client.call("getZone", { pathParams: { id: zoneId } }));
Promise.allSettled(calls).then(async (outcomes) => {
  await client.limiter.flush();
  process.stdout.write(JSON.stringify(outcomes.filter((o) => o.status === "rejected").map((o) => String(o.reason))));
  process.exit(0);
});
`;

/** What a process left: its exit code, the errors of its failed calls, and all it wrote to stderr. */
interface ProcessOutcome {
  code: number | null;
  errors: string[];
  stderr: string;
}

async function runProcess(bin: string, env: Record<string, string>): Promise<ProcessOutcome> {
  const clientModule = path.join(bin, "provider", "client", "index.js");
  const args = [clientModule, sim.url, TOKEN, String(CALLS), SEED_IDS.zones.display, JSON.stringify(WINDOWS)];
  const { code, stdout, stderr } = await runNodeScript(WORKER, args, { env: { ...process.env, ...env } });
  return { code, errors: code === 0 ? (JSON.parse(stdout) as string[]) : [], stderr };
}

/** Two processes of today's build and two of the bumped one, all at once. */
async function runBothReleases(env: Record<string, string>): Promise<ProcessOutcome[]> {
  return Promise.all([todayBin, bumpedBin, todayBin, bumpedBin].map((bin) => runProcess(bin, env)));
}

function expectAllWorked(outcomes: ProcessOutcome[]): void {
  expect(outcomes).toEqual(Array.from({ length: 4 }, () => ({ code: 0, errors: [], stderr: "" })));
  expect(sim.requests().operations["13"]?.byStatus["200"]).toBe(4 * CALLS);
}

let sim: RunningSimulator;
let work: string;
let todayBin: string;
let bumpedBin: string;
let limitsDir: string;
/** The account's state name in every store (a hash of the account key). */
let stateName: string;

/**
 * The next release's build: today's `bin/` copied with the format number raised, and nothing else,
 * beside a link to this checkout's dependencies.
 */
function bumpedBuild(): string {
  const root = path.join(work, "bumped");
  fs.cpSync(path.join(REPO_ROOT, "bin"), path.join(root, "bin"), { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"));
  const model = path.join(root, "bin", "provider", "limiter", "limiterState.js");
  const declaration = `exports.LIMITER_STATE_VERSION = ${LIMITER_STATE_VERSION};`;
  const text = fs.readFileSync(model, "utf8");
  if (text.split(declaration).length !== 2)
    throw new Error(`${model} does not declare the format once as "${declaration}": run npm run build`);
  fs.writeFileSync(model, text.replace(declaration, `exports.LIMITER_STATE_VERSION = ${BUMPED};`));
  return path.join(root, "bin");
}

beforeAll(() => {
  todayBin = path.join(REPO_ROOT, "bin");
  if (!fs.existsSync(path.join(todayBin, "provider", "client", "index.js"))) throw new Error("bin/ is missing: run npm run build");
  work = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-two-releases-"));
  bumpedBin = bumpedBuild();
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

beforeEach(async () => {
  // Retry-After in tenths of a second: the platform's whole seconds, scaled with the windows.
  sim = await startSimulator({ ...WINDOWS, retryAfterUnitMs: 100 });
  stateName = sharedStateName(accountKey(sim.url, TOKEN));
  limitsDir = fs.mkdtempSync(path.join(work, "limits-"));
});
afterEach(() => sim.close());

/** A state as it was stored: it parses, and no request of it is left in flight. */
function expectSettledState(raw: string | null | undefined): void {
  const state = parseState(raw);
  expect(state).toBeDefined();
  expect(state!.tickets).toEqual({});
}

describe("today's release and the next format's, on one account", () => {
  it("sharing one limits directory: one state file each, every call of both succeeds", async () => {
    expectAllWorked(await runBothReleases({ ADPLATFORM_LIMITS_DIR: limitsDir }));

    // The state files (a commit that released tickets also leaves its `.released` marker beside its state).
    const files = fs
      .readdirSync(limitsDir)
      .filter((file) => file.endsWith(".json"))
      .sort();
    expect(files).toEqual([`${stateName}.v${LIMITER_STATE_VERSION}.json`, `${stateName}.v${BUMPED}.json`]);
    for (const file of files) expectSettledState(fs.readFileSync(path.join(limitsDir, file), "utf8"));
  });

  describe("through one Redis", () => {
    const redis = useRedisServer();

    it("one key each, every call of both succeeds, and nothing falls back to the directory", async () => {
      expectAllWorked(await runBothReleases({ ADPLATFORM_LIMITS_DIR: limitsDir, ADPLATFORM_LIMITS_URL: redis.server.url }));

      const keys = (await redis.raw.keys("adplatform:*")).sort();
      expect(keys).toEqual([`adplatform:{${stateName}}:limits:v${LIMITER_STATE_VERSION}`, `adplatform:{${stateName}}:limits:v${BUMPED}`]);
      for (const key of keys) expectSettledState(await redis.raw.hget(key, "s"));
      expect(fs.readdirSync(limitsDir)).toEqual([]);
    });
  });
});
