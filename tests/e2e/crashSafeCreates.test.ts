/**
 * A killed `pulumi up` leaves no duplicate (provider/resources/journal), through the
 * commands a user types with the real CLI and the Node.js language host: an `up` of many
 * strategies is killed with SIGKILL at three points (during the first burst, while creates wait for
 * the steady window, during the last creates), each followed by `pulumi cancel` and `pulumi up`;
 * then `pulumi stack export` and the simulator hold the same objects, each created once. Plus
 * Ctrl-C (SIGINT), which stays clean, and a `--target-replace` with equal inputs, which still
 * creates a new object.
 *
 * The platform allows 150 creates a minute; to keep the suite short the simulator's steady window
 * is 10 s with 15 requests (the client learns both from the rate headers), and the burst stays the
 * catalog's 10 per second so the first burst does not overshoot. Where each kill landed is checked
 * from the simulator's request log, not from timing.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openCliSession, requireLanguageHost, type CliSession, linkRepositoryPackage } from "../../scripts/driver/cliSession";
import { pulumiBinDir } from "../../scripts/driver/paths";
import { CreateJournal } from "../../provider/resources/journal/store";
import { startSimulator, type LoggedCall, type RunningSimulator } from "../../simulator";
import { E2E_TIMEOUT_MS, TOKEN, pulumiIn } from "./harness";
import { processAlive } from "../../provider/infrastructure/processAlive";

jest.setTimeout(2 * E2E_TIMEOUT_MS);

/** Strategies per stack, the steady window's requests and length, the burst (catalog class C). */
const COUNT = 36;
const STEADY = 15;
const STEADY_WINDOW_MS = 10_000; // 10 s
const BURST = 10;

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const adp = require("pulumi-adplatform");
const count = Number(new pulumi.Config().require("count"));
const stack = pulumi.getStack();
for (let i = 0; i < count; i++) {
  new adp.BidStrategy("s" + i, { name: stack + "-" + i, strategy: "exact", value: 1, maxValue: 2 });
}
`;

let sim: RunningSimulator;
let workDir: string;
let cli: CliSession;
const journal = new CreateJournal(process.env.ADPLATFORM_JOURNAL_DIR!);
/** Processes the killed CLIs left behind (language hosts, programs), ended after the suite. */
const leftBehind = new Set<number>();

/**
 * The creates (op 3 answered 201) the simulator settled for `stack`'s strategies. POSTs refused
 * with 429 created nothing: the client starts from the catalog's steady limit and learns the
 * lowered one from the first refusals.
 */
function postsOf(stack: string): LoggedCall[] {
  const calls = sim.requests().operations["3"]?.calls ?? [];
  const nameOf = (call: LoggedCall) => (call.body as { name?: unknown } | null)?.name;
  return calls.filter((call) => {
    const name = nameOf(call);
    return call.status === 201 && typeof name === "string" && name.startsWith(`${stack}-`);
  });
}

/** The journal entries of `stack`'s resources. */
const entriesOf = (stack: string) => journal.entries().filter(([, entry]) => entry.urn.startsWith(`urn:pulumi:${stack}::`));

/** The simulator's strategies of `stack`. */
function objectsOf(stack: string): { id: string; name: string }[] {
  return sim
    .state()
    .bidStrategies.filter((s) => String(s.name).startsWith(`${stack}-`))
    .map((s) => ({ id: String(s.id), name: String(s.name) }));
}

/** Runs `pulumi <args>`; a non-zero exit fails the test with the command's output, unless `mayFail`. */
const pulumi = (args: string[], options: { mayFail?: boolean } = {}) => pulumiIn(cli, args, options);

/** Every process below `pid`, with its command line (Linux /proc). */
function descendants(pid: number): { pid: number; cmd: string }[] {
  const parents = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: { pid: number; cmd: string }[] = [];
  const visit = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      let cmd = "";
      try {
        cmd = fs.readFileSync(`/proc/${child}/cmdline`, "utf8").replace(/\0/g, " ");
      } catch {
        // gone meanwhile
      }
      out.push({ pid: child, cmd });
      visit(child);
    }
  };
  visit(pid);
  return out;
}

/** The account's open steady window of class C, or undefined when none is open. */
function steadyWindow(): { used: number; remaining: number } | undefined {
  const steady = sim.windows().classes.C?.steady;
  if (steady === undefined || steady.start === null || (steady.resetInMs ?? 0) <= 0) return undefined;
  return steady;
}

/** Requests the simulator holds at its gate (`hold`). */
const held = () => (sim.setFaults({}) as { waiting?: number }).waiting ?? 0;

/** True while the steady window is full, so every further create waits for the next one. */
const steadyFull = () => steadyWindow()?.remaining === 0;

/**
 * Polls until `ready` holds. No duration is asserted: the limit only ends a test that went wrong
 * instead of leaving the loop running after jest's timeout.
 */
async function until(ready: () => boolean, what = "the condition"): Promise<void> {
  const giveUpAt = Date.now() + E2E_TIMEOUT_MS;
  while (!ready()) {
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What happened to one interrupted `up`. */
interface Interrupted {
  /** Creates the simulator had answered when the signal was sent. */
  readonly atSignal: number;
  /** Creates of the interrupted run in all (its plugin's requests in flight included). */
  readonly ofRun: number;
  /** The CLI's output. */
  readonly output: string;
}

/**
 * `pulumi up` of `stack`, sent `signal` once `when(answered creates)` holds. After SIGKILL, waits
 * for the plugin to end by itself (the test fails if it does not).
 */
async function interruptedUp(
  stack: string,
  signal: "SIGKILL" | "SIGINT",
  when: (posts: number) => boolean,
  options: { answerAfterKill?: boolean } = {},
): Promise<Interrupted> {
  // Each run starts in fresh windows, so the log says which window each create fell in.
  await until(() => steadyWindow() === undefined);
  // A limiter state of its own: the run starts from the catalog's limits, as on a fresh machine,
  // rides the first burst at 10 a second and meets the lowered steady limit with its first 429s;
  // a state left by the suite's earlier runs would pace it by what they spent instead.
  const limitsDir = fs.mkdtempSync(path.join(workDir, ".limits-"));
  const child = spawn(path.join(pulumiBinDir(), "pulumi"), ["up", "--yes", "--skip-preview"], {
    cwd: cli.dir,
    env: { ...process.env, ...cli.env, ADPLATFORM_LIMITS_DIR: limitsDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let done = false;
  void exited.then(() => (done = true));
  await until(() => done || when(postsOf(stack).length));
  if (done) throw new Error(`the up of ${stack} ended before the kill point:\n${output}`);
  if (options.answerAfterKill) {
    // The platform holds the next creates, so their answers arrive after the CLI is gone, as the
    // answers of the requests in flight do when a CLI is killed.
    sim.setFaults({ hold: true });
    await until(() => held() > 0);
  }
  const below = descendants(child.pid!);
  const atSignal = postsOf(stack).length;
  child.kill(signal);
  await exited;
  sim.setFaults({ hold: false });
  removeEmptySidecars(new URL(cli.env.PULUMI_BACKEND_URL!).pathname);
  if (signal === "SIGKILL") {
    const plugins = below.filter((p) => p.cmd.includes("dynamic-provider"));
    expect(plugins.length).toBeGreaterThan(0);
    // The plugin answers and journals its requests in flight, then ends by itself.
    await until(() => plugins.every((p) => !processAlive(p.pid)));
    for (const p of below) if (processAlive(p.pid)) leftBehind.add(p.pid);
  }
  return { atSignal, ofRun: postsOf(stack).length, output };
}

/**
 * The recovery docs/crash-safety.md gives for Pulumi's own `file://` backend: it writes each state
 * file's `.attrs` sidecar (a checksum and content type) by truncating and then writing it, so a
 * SIGKILL between the two leaves it empty, and every later command fails "failed to load
 * checkpoint: EOF". An empty sidecar holds nothing; without one the backend reads the file as is.
 */
function removeEmptySidecars(backendDir: string): void {
  for (const entry of fs.readdirSync(backendDir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && entry.name.endsWith(".attrs") && fs.statSync(file).size === 0) fs.rmSync(file);
  }
}

/** `pulumi cancel` (after a kill), `pulumi up`, then state and platform compared. */
async function recoverAndCompare(stack: string, killed: boolean): Promise<{ upOutput: string }> {
  if (killed) await pulumi(["cancel", "--yes"], { mayFail: true });
  const up = await pulumi(["up", "--yes", "--skip-preview"]);
  const exported = JSON.parse((await pulumi(["stack", "export"])).stdout) as {
    deployment: { resources?: { type: string; id?: string }[]; pending_operations?: unknown[] };
  };
  const inState = (exported.deployment.resources ?? []).filter((r) => r.type.endsWith("adplatform:BidStrategy")).map((r) => r.id!);
  const onPlatform = objectsOf(stack);
  // Every object created on the platform is in the state exactly once, and nothing else is.
  expect(new Set(inState).size).toBe(inState.length);
  expect([...inState].sort()).toEqual(onPlatform.map((o) => o.id).sort());
  expect(onPlatform).toHaveLength(COUNT);
  expect(new Set(onPlatform.map((o) => o.name)).size).toBe(COUNT);
  // No create was sent twice: one POST per strategy.
  expect(postsOf(stack)).toHaveLength(COUNT);
  // What Pulumi itself noted of the interrupted creates stays in the state until cleared: notes of
  // resources the state now holds, which `refresh --clear-pending-creates` drops (docs/crash-safety.md).
  const pending = (exported.deployment.pending_operations ?? []) as { resource: { urn: string } }[];
  const urns = new Set((exported.deployment.resources ?? []).map((r) => (r as { urn?: string }).urn));
  expect(pending.filter((op) => !urns.has(op.resource.urn))).toEqual([]);
  if (pending.length > 0) {
    await pulumi(["refresh", "--clear-pending-creates", "--yes"]);
    const cleared = JSON.parse((await pulumi(["stack", "export"])).stdout) as { deployment: { pending_operations?: unknown[] } };
    expect(cleared.deployment.pending_operations ?? []).toEqual([]);
  }
  return { upOutput: up.stdout + up.stderr };
}

async function newStack(stack: string): Promise<void> {
  await pulumi(["stack", "init", stack]);
  await pulumi(["config", "set", "adplatform:baseUrl", sim.url]);
  await pulumi(["config", "set", "--secret", "adplatform:token", TOKEN]);
  await pulumi(["config", "set", "count", String(COUNT)]);
}

beforeAll(async () => {
  requireLanguageHost();
  sim = await startSimulator({ port: 0, steadyWindowMs: STEADY_WINDOW_MS, limits: { C: { burst: BURST, steady: STEADY } } });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-crash-"));
  fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), "name: adplatform-crash\nruntime: nodejs\ndescription: Many strategies\n");
  fs.writeFileSync(path.join(workDir, "package.json"), JSON.stringify({ name: "adplatform-crash", main: "index.js" }));
  fs.writeFileSync(path.join(workDir, "index.js"), PROGRAM);
  linkRepositoryPackage(workDir);
  cli = openCliSession(workDir);
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  for (const pid of leftBehind) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  cli?.close();
  await sim?.close();
  if (workDir !== undefined) fs.rmSync(workDir, { recursive: true, force: true });
});

test("killed during the first burst: cancel and up leave every object in the state once", async () => {
  await newStack("burst");
  const run = await interruptedUp("burst", "SIGKILL", (posts) => posts >= 2, { answerAfterKill: true });
  // Where the kill landed: inside the first burst window, before it was full.
  expect(run.atSignal).toBeLessThan(BURST);
  expect(run.ofRun).toBeLessThan(COUNT);
  const { upOutput } = await recoverAndCompare("burst", true);
  expect(entriesOf("burst")).toEqual([]);
  // The objects the killed run's plugin created after the CLI died were taken over, and said so.
  expect(run.ofRun).toBeGreaterThan(run.atSignal);
  expect(upOutput).toMatch(/took over bid strategy \d+, which an interrupted update created/);
});

test("killed while creates wait for the steady window: none of the waiting ones is sent", async () => {
  await newStack("steady");
  const run = await interruptedUp("steady", "SIGKILL", () => steadyFull());
  // Where the kill landed: the run's first steady window was full (checked when the signal went)
  // and the rest waited for the next one; the orphaned plugin sent none of them.
  expect(run.atSignal).toBeLessThanOrEqual(STEADY);
  expect(run.ofRun).toBe(STEADY);
  await recoverAndCompare("steady", true);
  expect(entriesOf("steady")).toEqual([]);
});

test("killed during the last creates: the next up takes over what the platform answered", async () => {
  await newStack("last");
  // The platform holds the creates of the run's last window; the kill lands while they are sent.
  const run = await interruptedUp("last", "SIGKILL", (posts) => posts >= 2 * STEADY, { answerAfterKill: true });
  expect(run.atSignal).toBeGreaterThanOrEqual(2 * STEADY);
  expect(run.atSignal).toBeLessThan(COUNT);
  expect(run.ofRun).toBeGreaterThan(run.atSignal);
  const { upOutput } = await recoverAndCompare("last", true);
  expect(upOutput).toMatch(/took over bid strategy \d+/);
  expect(entriesOf("last")).toEqual([]);
});

test("Ctrl-C (SIGINT) stays clean: the engine finishes what it started, and up completes the rest", async () => {
  await newStack("sigint");
  const run = await interruptedUp("sigint", "SIGINT", () => steadyFull());
  expect(run.atSignal).toBeLessThanOrEqual(STEADY);
  const { upOutput } = await recoverAndCompare("sigint", false);
  expect(upOutput).not.toMatch(/took over/);
});

test("a replacement with equal inputs (--target-replace) creates a new object", async () => {
  const exported = JSON.parse((await pulumi(["stack", "export"])).stdout) as { deployment: { resources: { urn: string; id?: string }[] } };
  const first = exported.deployment.resources.find((r) => r.urn.endsWith("::s0"))!;
  await pulumi(["up", "--yes", "--skip-preview", "--target-replace", first.urn]);
  const after = JSON.parse((await pulumi(["stack", "export"])).stdout) as { deployment: { resources: { urn: string; id?: string }[] } };
  const replaced = after.deployment.resources.find((r) => r.urn === first.urn)!;
  expect(replaced.id).not.toBe(first.id);
  expect(postsOf("sigint")).toHaveLength(COUNT + 1);
});
