/**
 * The simulator's command line, run as a real child process. The CLI is compiled on its own into a
 * temporary folder under node_modules/.cache first (so the test never depends on a stale `bin/`, and
 * the compiled files still resolve `zod` from this package's node_modules).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { request } from "undici";
import { SEED_IDS } from "../../simulator";

jest.setTimeout(120_000);

const root = join(__dirname, "..", "..");
let outDir: string;
let cliPath: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  const cache = join(root, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  outDir = mkdtempSync(join(cache, "simulator-cli-test-"));
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  // The same compiler settings as tsconfig.json, for the CLI and what it imports only.
  const flags = ["--ignoreConfig", "--outDir", outDir, "--rootDir", root, "--module", "node16", "--moduleResolution", "node16"];
  flags.push("--target", "ES2022", "--strict", "--esModuleInterop", "--resolveJsonModule", "--skipLibCheck", "--types", "node");
  await promisify(execFile)(process.execPath, [tsc, ...flags, join(root, "simulator", "cli.ts")], { cwd: root });
  cliPath = join(outDir, "simulator", "cli.js");
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(outDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  firstLine: string;
  url: string;
  /** Everything written to stderr so far (all of it once `closed(child)` resolved). */
  stderr(): string;
}

/** Spawns the CLI and resolves with its first stdout line. */
function startCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Started> {
  const child = spawn(process.execPath, [cliPath, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const newline = out.indexOf("\n");
      if (newline >= 0) {
        const firstLine = out.slice(0, newline);
        resolve({ child, firstLine, url: firstLine.replace(/^listening on /, ""), stderr: () => err });
      }
    });
    child.once("exit", (code) => reject(new Error(`cli exited with ${code} before listening: ${err}`)));
  });
}

/** Runs the CLI to completion. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cliPath, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Resolves once the child exited and its output streams are closed (so all stderr was read). */
function closed(child: ChildProcess): Promise<void> {
  return child.stdout!.closed && child.stderr!.closed ? Promise.resolve() : new Promise((resolve) => child.once("close", () => resolve()));
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once("exit", resolve));
}

const get = async (url: string, token = "demo-token") => {
  const res = await request(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
};

it("prints exactly the listening line for --port 0, serves the API, and exits 0 on SIGTERM", async () => {
  const { child, firstLine, url } = await startCli(["--port", "0"]);
  expect(firstLine).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
  expect(Number(new URL(url).port)).toBeGreaterThan(0);
  const reply = await get(`${url}/v2/adex/zones/1001`);
  expect(reply.status).toBe(200);
  expect(JSON.parse(reply.body).items[0].id).toBe("1001");
  child.kill("SIGTERM");
  expect(await exited(child)).toBe(0);
});

it("stops cleanly on SIGINT", async () => {
  const { child } = await startCli(["--port", "0"]);
  child.kill("SIGINT");
  expect(await exited(child)).toBe(0);
});

it("applies limit, in-flight and fault flags", async () => {
  const faults = JSON.stringify({ rules: [{ kind: "error500", op: 17, count: 1 }] });
  const { child, url } = await startCli(["--port", "0", "--burst-limit", "2", "--max-in-flight", "3", "--faults", faults]);
  try {
    expect((await get(`${url}/v2/platform/countries`)).status).toBe(500);
    const second = await get(`${url}/v2/platform/countries`);
    expect(second.status).toBe(200);
    expect(second.headers["x-ratelimit-limit"]).toBe("2");
    const third = await get(`${url}/v2/platform/countries`);
    expect(third.status).toBe(429);
    const windows = JSON.parse((await get(`${url}/_sim/windows`)).body);
    expect(windows.inFlight.max).toBe(3);
  } finally {
    child.kill("SIGTERM");
    await exited(child);
  }
});

it("--help names the seed ids to adopt and the user guide the package ships, which lists every seed id", async () => {
  const { stdout } = await runCli(["--help"]);
  const adoptable = [SEED_IDS.zones, SEED_IDS.bidModifiers, SEED_IDS.bidStrategies, SEED_IDS.campaignGroups, SEED_IDS.abTests];
  const unnamed = adoptable.flatMap((ids) => Object.values(ids)).filter((id) => !new RegExp(`\\b${id}\\b`).test(stdout));
  expect(unnamed).toEqual([]);
  expect(stdout).toContain("docs/simulator.md");
  const guide = readFileSync(join(__dirname, "..", "..", "docs", "simulator.md"), "utf8");
  const missing = Object.values(SEED_IDS)
    .flatMap((ids) => Object.values(ids))
    .filter((id) => !guide.includes(`\`${id}\``));
  expect(missing).toEqual([]);
  const pkg = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { files: string[] };
  // package.json ships docs/ whole or this page by name (tests/package/contents.test.ts packs it).
  expect(pkg.files.filter((entry) => entry === "docs/" || entry === "docs/simulator.md")).not.toEqual([]);
});

it("--help prints the usage and exits 0", async () => {
  const { code, stdout } = await runCli(["--help"]);
  expect(code).toBe(0);
  expect(stdout).toMatch(/^Usage: adplatform-simulator \[options\]/);
  expect(stdout).toMatch(/--burst-window-ms/);
  expect(stdout).toMatch(
    /require "Authorization: Bearer <token>" with the token from\s+the environment variable ADPLATFORM_SIMULATOR_ADMIN_TOKEN/,
  );
});

describe("--host other machines can reach", () => {
  const adminEnv = { ...process.env, ADPLATFORM_SIMULATOR_ADMIN_TOKEN: "cli-admin-token" };

  it("prints one warning on stderr and takes the admin token from the environment for /_sim/*", async () => {
    const { child, url, stderr } = await startCli(["--port", "0", "--host", "0.0.0.0"], adminEnv);
    const port = new URL(url).port;
    try {
      expect((await get(`http://127.0.0.1:${port}/_sim/state`)).status).toBe(401);
      expect((await get(`http://127.0.0.1:${port}/_sim/state`, "cli-admin-token")).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      await closed(child);
    }
    const lines = stderr()
      .split("\n")
      .filter((l) => l !== "");
    expect(lines).toEqual([
      expect.stringMatching(/^warning: listening on 0\.0\.0\.0, which other machines can reach;.*\/_sim\/\* requires/),
    ]);
    expect(stderr()).not.toContain("cli-admin-token");
  });

  it("without the variable, /_sim/* is refused and the warning says how to enable it", async () => {
    const { ADPLATFORM_SIMULATOR_ADMIN_TOKEN: _unset, ...env } = adminEnv;
    const { child, url, stderr } = await startCli(["--port", "0", "--host", "0.0.0.0"], env);
    try {
      expect((await get(`http://127.0.0.1:${new URL(url).port}/_sim/reset`)).status).toBe(403);
    } finally {
      child.kill("SIGTERM");
      await closed(child);
    }
    expect(stderr()).toMatch(/^warning: .*\/_sim\/\* is refused \(403\) until ADPLATFORM_SIMULATOR_ADMIN_TOKEN is set/);
  });

  it("on loopback prints no warning", async () => {
    const { child, stderr } = await startCli(["--port", "0"], adminEnv);
    child.kill("SIGTERM");
    await closed(child);
    expect(stderr()).toBe("");
  });
});

it.each([
  [["--port", "abc"], /--port must be a number/],
  [["--no-such-flag"], /Unknown option/],
  [["--error-rate", "3"], /errorRate|too big|<=1/i],
])("refuses %j with exit code 2 and a message", async (args, message) => {
  const { code, stderr } = await runCli(args);
  expect(code).toBe(2);
  expect(stderr).toMatch(message);
});
