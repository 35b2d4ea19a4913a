/**
 * What the end-to-end suites of the release artifacts share: the files of dist/ (`npm run dist`, which
 * `npm run test:e2e` runs first), a fresh directory outside the repository for each program, and the
 * environment a user without this repository has: PATH with the Pulumi CLI and its language hosts,
 * Node.js and the system's tools, and nothing of this checkout (no node_modules/.bin, which npm puts on
 * PATH and which holds `pulumi-resource-adplatform`), or a PATH with only the commands a program's
 * language needs and no Node.js, and the demo program each of them runs.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { openCliSession, type CliSession } from "../../scripts/driver/cliSession";
import { pulumiBinDir, REPO_ROOT } from "../../scripts/driver/paths";
import { DEFAULT_PLUGIN_DOWNLOAD_URL } from "../../scripts/native/buildSchema";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { TOKEN, pulumiIn } from "./harness";

export const DIST_DIR = path.join(REPO_ROOT, "dist");

/** package.json's version: the one every artifact carries. */
export const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

/** The path of `name` in dist/; throws with what to run when it is not there. */
export function distFile(name: string): string {
  const file = path.join(DIST_DIR, name);
  if (!fs.existsSync(file)) throw new Error(`${file} not found: run \`npm run dist\` first (npm run test:e2e does)`);
  return file;
}

/** The plugin archive for the machine the tests run on, named as the engine names it. */
export function pluginArchiveName(): string {
  const os_ = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform as string];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  if (!os_ || !arch) throw new Error(`no plugin archive is built for ${process.platform}-${process.arch}`);
  return `pulumi-resource-adplatform-v${VERSION}-${os_}-${arch}.tar.gz`;
}

/** dist/ served over loopback in place of the GitHub release the schema's `pluginDownloadURL` names. */
export interface ServedRelease {
  /** The names requested so far, in order. */
  readonly served: readonly string[];
  /** PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES pointing the release's URL at this server, for a program's environment. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Serves the files of dist/ by name, as a release's assets are served, recording each request. */
export async function serveRelease(): Promise<ServedRelease> {
  const served: string[] = [];
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.slice(1));
    served.push(name);
    const file = path.join(DIST_DIR, name);
    if (name.includes("/") || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const escaped = DEFAULT_PLUGIN_DOWNLOAD_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return {
    served,
    env: { PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${escaped}$=${url}` },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A fresh directory under the system's temporary directory, far from the checkout. */
export function freshDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (dir.startsWith(REPO_ROOT + path.sep)) throw new Error(`${dir} is inside the repository`);
  return dir;
}

/** PATH as a user has it: the CLI's bin directory, then PATH without anything under the checkout. */
export function userPath(): string {
  const outside = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter(
      (dir) =>
        dir !== "" && dir !== pulumiBinDir() && path.resolve(dir) !== REPO_ROOT && !path.resolve(dir).startsWith(REPO_ROOT + path.sep),
    );
  const found = outside.find((dir) => fs.existsSync(path.join(dir, "pulumi-resource-adplatform")));
  if (found !== undefined)
    throw new Error(`${found} holds a pulumi-resource-adplatform: the test would not show that the release alone works`);
  return [pulumiBinDir(), ...outside].join(path.delimiter);
}

/**
 * A PATH that holds `commands` and nothing else, no Node.js in particular: a directory of links to
 * each, found in the CLI's bin directory or on PATH. Throws when `command -v node` finds one through it.
 */
export function pathWithoutNode(dir: string, commands: readonly string[]): string {
  fs.mkdirSync(dir);
  for (const command of commands) {
    const found = [pulumiBinDir(), ...(process.env.PATH ?? "").split(path.delimiter)]
      .map((d) => path.join(d, command))
      .find((file) => isExecutableFile(file));
    if (found === undefined) throw new Error(`${command} is neither next to the CLI nor on PATH`);
    fs.symlinkSync(fs.realpathSync(found), path.join(dir, command));
  }
  const node = spawnSync("/bin/sh", ["-c", "command -v node"], { env: { PATH: dir }, encoding: "utf8" });
  if (node.status === 0) throw new Error(`${dir} holds a node: ${node.stdout.trim()}`);
  return dir;
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Where a workspace's program runs and what it starts with. */
export interface WorkspaceOptions {
  /** Files of dist/ (by name) copied into the program's directory. */
  readonly distFiles?: readonly string[];
  /** Added to the user's environment. */
  readonly extraEnv?: Readonly<Record<string, string>>;
  /** The program's directory inside the fresh one, where it must have siblings (a clone beside it). */
  readonly programDir?: string;
  /** When given, PATH holds these commands only, and no Node.js (`pathWithoutNode`), instead of `userPath()`. */
  readonly onlyCommands?: readonly string[];
}

/** What a release suite holds on to: one simulator for the file, and the user workspaces it opened. */
export interface ReleaseContext {
  readonly sim: RunningSimulator;
  /**
   * A fresh directory outside the checkout, and a CLI session on the program's directory in it as a
   * user has it: fresh PULUMI_HOME and backend, `userPath()`, npm preferring its cache (which holds
   * the versions this repository's npm ci installed).
   */
  workspace(prefix: string, options?: WorkspaceOptions): CliSession;
}

/** Registers beforeAll/afterAll that start the file's simulator and close and remove every workspace. */
export function useRelease(): ReleaseContext {
  const opened: { root: string; cli: CliSession }[] = [];
  const context = {
    workspace(prefix: string, options: WorkspaceOptions = {}) {
      const root = freshDir(prefix);
      const dir = options.programDir === undefined ? root : path.join(root, options.programDir);
      fs.mkdirSync(dir, { recursive: true });
      for (const name of options.distFiles ?? []) fs.copyFileSync(distFile(name), path.join(dir, name));
      const PATH = options.onlyCommands === undefined ? userPath() : pathWithoutNode(path.join(root, "path"), options.onlyCommands);
      const cli = openCliSession(dir, {
        secrets: [TOKEN],
        extraEnv: { PATH, npm_config_prefer_offline: "true", ...options.extraEnv },
      });
      opened.push({ root, cli });
      return cli;
    },
  } as { sim: RunningSimulator } & Omit<ReleaseContext, "sim">;
  beforeAll(async () => {
    context.sim = await startSimulator({ port: 0 });
  });
  afterAll(async () => {
    for (const { root, cli } of opened) {
      cli.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
    await context.sim?.close();
  });
  return context;
}

/** `pulumi plugin install` of the plugin archive a workspace holds (`distFiles: [pluginArchiveName()]`). */
export async function installPluginArchive(cli: CliSession): Promise<void> {
  await pulumiIn(cli, ["plugin", "install", "resource", "adplatform", VERSION, "-f", pluginArchiveName()]);
}

/**
 * The demo program in Python: what examples/yaml and examples/go declare too (a strategy, a group,
 * the country list), so that `expectDemoOutcome` checks every language's run alike.
 */
export const DEMO_PYTHON_PROGRAM = `import pulumi
import pulumi_adplatform as adplatform

strategy = adplatform.BidStrategy("night-bids", name="Night bids", strategy="percent_add", value=12.5, max_value=3)
group = adplatform.CampaignGroup("spring-sale", name="Spring sale", color="#22aa44", items=["5101", "5102"])
countries = adplatform.get_countries_output()

pulumi.export("strategyId", strategy.id)
pulumi.export("groupId", group.id)
pulumi.export("countryCount", countries.total)
`;

/** What a run of the demo program leaves: its outputs, and the strategy and group on the simulator. */
export function expectDemoOutcome(outputs: Record<string, unknown>, sim: RunningSimulator): void {
  expect(outputs).toEqual({
    strategyId: expect.stringMatching(/^\d+$/),
    groupId: expect.stringMatching(/^\d+$/),
    countryCount: sim.state().countries?.length,
  });
  const state = sim.state();
  expect(state.bidStrategies?.some((s) => s.id === outputs.strategyId && s.name === "Night bids")).toBe(true);
  expect(state.campaignGroups?.find((g) => g.id === outputs.groupId)).toMatchObject({
    name: "Spring sale",
    color: "#22aa44",
    items: ["5101", "5102"],
  });
}

/**
 * The demo program's stack, already initialised (`initDemoStack`), through `pulumi up`: its outcome
 * checked, `afterUp` run, no changes on a second preview, then destroyed.
 */
export async function upDemoProgram(cli: CliSession, sim: RunningSimulator, afterUp?: () => Promise<void>): Promise<void> {
  await pulumiIn(cli, ["up", "--yes", "--skip-preview"]);
  expectDemoOutcome(JSON.parse((await pulumiIn(cli, ["stack", "output", "--json"])).stdout), sim);
  await afterUp?.();
  await pulumiIn(cli, ["preview", "--expect-no-changes"]);
  await pulumiIn(cli, ["destroy", "--yes", "--skip-preview"]);
}
