/**
 * The user's own path: the package as `npm pack` makes it, installed from the tarball into a fresh
 * program directory outside the repository (no links), a TypeScript program laid out as
 * `pulumi new typescript` lays it out, and the commands a user types, through the real CLI and the
 * Node.js language host: stack init, config set (token --secret), preview --diff, up,
 * preview --expect-no-changes, a one-field change, refresh, destroy. Checked against the outputs,
 * `pulumi stack export` and the simulator's request log.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { requireLanguageHost, openCliSession, writeTypeScriptProgram, type CliSession } from "../../scripts/driver/cliSession";
import { startSimulator, type LoggedCall, type RunningSimulator } from "../../simulator";
import { E2E_TIMEOUT_MS, REPO_ROOT, TOKEN, pulumiIn } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

/** The program, as a user writes it in `index.ts` (top-level code and exported outputs). */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

const config = new pulumi.Config();

const strategy = new adp.BidStrategy("night-bids", { name: "Night bids", strategy: "percent_add", value: 12.5, maxValue: 3 });
const group = new adp.CampaignGroup("spring-sale", { name: "Spring sale", color: "#22aa44", items: ["5101", "5102"] });
new adp.BidModifier("dach", {
  bidModifierId: "501",
  value: config.get("modifierValue") ?? "1.40",
  targeting: { countries: { items: ["DE", "AT", "CH"], op: "in" } },
});
new adp.AbTestVariation("hero-image", { abTestId: "301", variationId: "2", name: "Hero image B" });
const zone = adp.getZoneOutput({ id: "1001" });

export const strategyId = strategy.id;
export const groupId = group.id;
export const zoneName = zone.name;
`;

/** Versions of what the program installs besides the package: the ones this repository is tested with. */
function installedVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

/** Writes the program directory as `pulumi new typescript` lays it out, with the package from `tarball`. */
function writeProgram(dir: string, tarball: string): void {
  writeTypeScriptProgram(dir, {
    name: "adplatform-user",
    description: "A user's program",
    index: PROGRAM,
    devDependencies: { "@types/node": installedVersion("@types/node"), typescript: installedVersion("typescript") },
    dependencies: { "@pulumi/pulumi": installedVersion("@pulumi/pulumi"), "pulumi-adplatform": `file:${tarball}` },
  });
}

/** Every call of the demo account's log, in arrival order. */
function allCalls(sim: RunningSimulator): LoggedCall[] {
  return Object.values(sim.requests().operations)
    .flatMap((op) => op.calls)
    .sort((a, b) => a.seq - b.seq);
}

let sim: RunningSimulator;
let workDir: string;
let programDir: string;
let cli: CliSession;
/** Sequence number of the last logged call before the current step. */
let mark = 0;

/** Calls logged since the last `markLog()`. */
function callsSinceMark(): LoggedCall[] {
  return allCalls(sim).filter((call) => call.seq > mark);
}
function markLog(): void {
  mark = allCalls(sim).reduce((max, call) => Math.max(max, call.seq), 0);
}

/** Runs `pulumi <args>`; a non-zero exit fails the test with the command's output. */
const pulumi = (args: string[], options: { mayFail?: boolean } = {}) => pulumiIn(cli, args, options);

beforeAll(async () => {
  requireLanguageHost();
  sim = await startSimulator({ port: 0 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-user-"));
  // The build is there (npm run test:e2e builds first); pack without its prepare build.
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", workDir], { cwd: REPO_ROOT, encoding: "utf8" }),
  ) as { filename: string }[];
  const tarball = path.join(workDir, packed[0]!.filename);
  programDir = path.join(workDir, "program");
  fs.mkdirSync(programDir);
  writeProgram(programDir, tarball);
  // From npm's cache when it holds these versions (this repository's npm ci put them there).
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: programDir, stdio: "pipe" });
  cli = openCliSession(programDir);
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  cli?.close();
  await sim?.close();
  if (workDir !== undefined) fs.rmSync(workDir, { recursive: true, force: true });
});

test("the package installs from its tarball as a real directory", () => {
  const installed = path.join(programDir, "node_modules", "pulumi-adplatform");
  expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
  expect(fs.existsSync(path.join(installed, "bin", "sdk", "index.js"))).toBe(true);
});

test("npx adplatform-simulator runs from the installed package: --help, and a server on a free port", async () => {
  const help = execFileSync("npx", ["--no-install", "adplatform-simulator", "--help"], { cwd: programDir, encoding: "utf8" });
  expect(help).toMatch(/^Usage: adplatform-simulator \[options\]/);
  // The server itself from the link npx runs (npx does not pass SIGTERM on to it).
  const bin = path.join(programDir, "node_modules", ".bin", "adplatform-simulator");
  const child = spawn(bin, ["--port", "0"], { cwd: programDir, stdio: ["ignore", "pipe", "inherit"] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once("exit", (code) => reject(new Error(`adplatform-simulator exited ${code} before listening: ${out}`)));
    });
    const zone = await fetch(`${url}/v2/adex/zones/1001`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(zone.status).toBe(200);
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

test("stack init and config set, the token as a secret", async () => {
  expect((await pulumi(["stack", "init", "dev"])).code).toBe(0);
  expect((await pulumi(["config", "set", "adplatform:baseUrl", sim.url])).code).toBe(0);
  expect((await pulumi(["config", "set", "--secret", "adplatform:token", TOKEN])).code).toBe(0);
  expect(fs.readFileSync(path.join(programDir, "Pulumi.dev.yaml"), "utf8")).not.toContain(TOKEN);
});

test("preview --diff plans the four creates and sends no write", async () => {
  markLog();
  const preview = await pulumi(["preview", "--diff"]);
  expect(preview.code).toBe(0);
  expect(preview.stdout).toMatch(/\+ 5 to create/);
  expect(callsSinceMark().filter((call) => call.method !== "GET")).toEqual([]);
});

test("up creates them; the outputs and the exported state say so, without the token", async () => {
  const up = await pulumi(["up", "--yes"]);
  expect(up.code).toBe(0);
  const outputs = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
  expect(outputs.strategyId).toMatch(/^\d+$/);
  expect(outputs.groupId).toMatch(/^\d+$/);
  expect(outputs.zoneName).toEqual(expect.any(String));
  expect(sim.state().bidStrategies.map((s) => String(s.id))).toContain(outputs.strategyId);

  const exported = await pulumi(["stack", "export"]);
  expect(exported.code).toBe(0);
  expect(exported.stdout).not.toContain(TOKEN);
  const deployment = JSON.parse(exported.stdout) as { deployment: { resources: { type: string; id?: string }[] } };
  const ours = deployment.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/adplatform:"));
  expect(ours.map((r) => r.type).sort()).toEqual(
    ["AbTestVariation", "BidModifier", "BidStrategy", "CampaignGroup"].map((kind) => `pulumi-nodejs:dynamic/adplatform:${kind}`),
  );
  expect(ours.find((r) => r.type.endsWith(":BidStrategy"))?.id).toBe(outputs.strategyId);
});

test("preview --expect-no-changes sends nothing but the data-source read", async () => {
  markLog();
  const preview = await pulumi(["preview", "--expect-no-changes"]);
  expect(preview.code).toBe(0);
  const calls = callsSinceMark();
  expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(["GET /v2/adex/zones/1001"]);
});

test("a one-field change shows exactly that field, and up sends it alone", async () => {
  expect((await pulumi(["config", "set", "modifierValue", "1.50"])).code).toBe(0);
  const diff = await pulumi(["preview", "--diff"]);
  expect(diff.code).toBe(0);
  expect(diff.stdout).toMatch(/value\s*:\s*"1\.40" => "1\.50"/);
  expect(diff.stdout).toMatch(/~ 1 to update/);
  markLog();
  expect((await pulumi(["up", "--yes"])).code).toBe(0);
  const writes = callsSinceMark().filter((call) => call.method !== "GET");
  expect(writes.map((call) => [call.method, call.body])).toEqual([["PATCH", { value: "1.50" }]]);
});

test("refresh succeeds and leaves nothing to change", async () => {
  expect((await pulumi(["refresh", "--yes"])).code).toBe(0);
  expect((await pulumi(["preview", "--expect-no-changes"])).code).toBe(0);
});

test("destroy removes them from the stack and says what stays on the platform", async () => {
  const destroy = await pulumi(["destroy", "--yes"]);
  expect(destroy.code).toBe(0);
  expect(destroy.stdout).toMatch(/cannot delete bid strategies/);
  expect(destroy.stdout).toMatch(/cannot delete campaign groups/);
  expect((await pulumi(["stack", "rm", "--yes", "dev"])).code).toBe(0);
});
