/**
 * Shared set-up of the end-to-end suites: one in-process simulator per test file, stacks opened
 * through the demo's driver (scripts/driver) with the real Pulumi CLI, each on a fresh local
 * backend. Requires `npm run build` (the program imports the built package by name) and
 * scripts/ensure-pulumi; `npm run test:e2e` does both first.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { type WindowLimits } from "../../bench/bound";
import { BURST_WINDOW_MS, RATE_CLASSES, STEADY_WINDOW_MS } from "../../provider/catalog/rateClasses";
import {
  linkRepositoryPackage,
  openCliSession,
  requireLanguageHost,
  writeTypeScriptProgram,
  type CliResult,
  type CliSession,
  type TypeScriptProgram,
} from "../../scripts/driver/cliSession";
import type { ProgramFn } from "../../scripts/driver/project";
import { openStack, type StackSession } from "../../scripts/driver/stackSession";
import { EXAMPLES_DIR, REPO_ROOT, pulumiBinDir } from "../../scripts/driver/paths";
import { startSimulator, type LoggedCall, type RunningSimulator } from "../../simulator";

export { EXAMPLES_DIR, REPO_ROOT } from "../../scripts/driver/paths";

/** The simulator's seeded token of the `demo` account. */
export const TOKEN = "demo-token";

/** The simulator's seeded token of the `second` account. */
export const SECOND_TOKEN = "second-token";

/** The engine's marker of a secret value in a state (Pulumi's secret signature). */
export const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/** The native plugin's entry in the built package, which a program finds as `pulumi-resource-adplatform`. */
export const NATIVE_PLUGIN_MAIN = path.join(REPO_ROOT, "bin", "provider", "faces", "native", "main.js");

/** One `up` takes seconds; start-up of the CLI and the plugin on a loaded 2-core machine is slow. */
export const E2E_TIMEOUT_MS = 180_000;

/** The quickstart example's project folder. */
export const QUICKSTART = path.join(EXAMPLES_DIR, "quickstart");

/** What a test file holds on to: its simulator and its state folder. */
export interface E2eContext {
  sim: RunningSimulator;
  stateDir: string;
  /** Opens a stack of `projectDir` (default the quickstart) on a fresh backend. */
  open(options?: { projectDir?: string; config?: Record<string, string>; program?: ProgramFn }): Promise<StackSession>;
}

let counter = 0;

/**
 * Registers beforeAll/afterAll that start one simulator for the file and close every stack opened
 * through `open` (stack settings files removed from the project folders, backends deleted).
 */
export function useE2e(): E2eContext {
  const sessions: StackSession[] = [];
  const ctx = { sessions } as unknown as E2eContext;
  beforeAll(async () => {
    ctx.sim = await startSimulator({ port: 0 });
    ctx.stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-e2e-"));
  });
  afterAll(async () => {
    for (const session of sessions) {
      await session.stack.workspace.removeStack(session.stack.name, { force: true }).catch(() => undefined);
      await session.close();
    }
    await ctx.sim?.close();
    if (ctx.stateDir !== undefined) fs.rmSync(ctx.stateDir, { recursive: true, force: true });
  });
  ctx.open = async (options = {}) => {
    // Unique per process and case: the settings file Pulumi.<stack>.yaml lands in the project folder.
    const stackName = `e2e-${process.pid}-${++counter}`;
    const session = await openStack({
      projectDir: options.projectDir ?? QUICKSTART,
      stackName,
      baseUrl: ctx.sim.url,
      token: TOKEN,
      config: options.config,
      program: options.program,
      stateDir: ctx.stateDir,
    });
    sessions.push(session);
    return session;
  };
  return ctx;
}

/** The calls of one operation (by number) in the `demo` account's log. */
export function callsOf(sim: RunningSimulator, op: number): LoggedCall[] {
  return sim.requests().operations[String(op)]?.calls ?? [];
}

/** Collects streamed CLI output. */
export function collector(): { onOutput(line: string): void; readonly text: string } {
  let text = "";
  return {
    onOutput(line: string) {
      text += line;
    },
    get text() {
      return text;
    },
  };
}

/**
 * The `pulumi-adplatform` package as a program in the quickstart folder resolves it by name (the
 * built package, through the link the driver makes), for test programs written inline.
 */
export function adplatformPackage(): typeof import("../../sdk") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(require.resolve("pulumi-adplatform", { paths: [QUICKSTART] })) as typeof import("../../sdk");
}

/** Runs `pulumi <args>` in `cli`; a non-zero exit fails the test with the command's output, unless `mayFail`. */
export async function pulumiIn(cli: CliSession, args: string[], options: { mayFail?: boolean } = {}): Promise<CliResult> {
  const result = await cli.pulumi(args);
  if (result.code !== 0 && !options.mayFail) {
    throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** Creates stack `dev` in `cli`'s program, configured for the `demo` account of the simulator at `baseUrl`. */
export async function initDemoStack(cli: CliSession, baseUrl: string): Promise<void> {
  await pulumiIn(cli, ["stack", "init", "dev"]);
  await pulumiIn(cli, ["config", "set", "adplatform:baseUrl", baseUrl]);
  await pulumiIn(cli, ["config", "set", "--secret", "adplatform:token", TOKEN]);
}

/** A TypeScript program on stack `dev` of the demo account, ready for `pulumi` commands. */
export interface TypeScriptStack {
  /** The program's folder. */
  readonly dir: string;
  readonly cli: CliSession;
  /** Closes the CLI session and removes the folder. */
  close(): void;
}

/**
 * Writes `program` into a fresh folder (a new temporary one, or `options.dir`), makes it resolve
 * this repository's built package without an install (`linkRepositoryPackage`), opens a CLI
 * session that never echoes the demo token or `options.secrets`, and creates stack `dev` for the
 * demo account of the simulator at `baseUrl` (`initDemoStack`). `face: "native"` also links the
 * native face's TypeScript SDK as `pulumi-adplatform-native` and names the plugin to the engine
 * through Pulumi.yaml, from where npm would link the package's bin.
 */
export async function openTypeScriptStack(
  baseUrl: string,
  program: TypeScriptProgram,
  options: { face?: "dynamic" | "native"; secrets?: readonly string[]; dir?: string } = {},
): Promise<TypeScriptStack> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), `${program.name}-`));
  fs.mkdirSync(dir, { recursive: true });
  writeTypeScriptProgram(dir, program);
  linkRepositoryPackage(dir);
  if (options.face === "native") {
    fs.symlinkSync(path.join(REPO_ROOT, "sdks", "nodejs", "bin"), path.join(dir, "node_modules", "pulumi-adplatform-native"), "dir");
    fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
    fs.symlinkSync(NATIVE_PLUGIN_MAIN, path.join(dir, "node_modules", ".bin", "pulumi-resource-adplatform"));
    fs.appendFileSync(path.join(dir, "Pulumi.yaml"), "plugins:\n  providers:\n    - name: adplatform\n      path: ./node_modules/.bin\n");
  }
  const cli = openCliSession(dir, { secrets: [TOKEN, ...(options.secrets ?? [])] });
  const close = () => {
    cli.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await initDemoStack(cli, baseUrl);
  } catch (error) {
    close();
    throw error;
  }
  return { dir, cli, close };
}

/**
 * Sets `adplatform:token` of `cli`'s stack (or `stackArgs`' one) in clear, without `--secret`: the
 * native plugin's CheckConfig still keeps it out of the state (`expectTokenEncryptedInState`).
 */
export async function setTokenInClear(cli: CliSession, stackArgs: readonly string[] = []): Promise<void> {
  await pulumiIn(cli, ["config", "set", ...stackArgs, "adplatform:token", TOKEN]);
}

/** Expects the state of `cli`'s stack to hold `TOKEN` only encrypted, as the native default provider's secret input. */
export async function expectTokenEncryptedInState(cli: CliSession, stackArgs: readonly string[] = []): Promise<void> {
  const text = (await pulumiIn(cli, ["stack", "export", ...stackArgs])).stdout;
  expect(text).not.toContain(TOKEN);
  const { resources } = (
    JSON.parse(text) as { deployment: { resources: { urn: string; type: string; inputs?: Record<string, unknown> }[] } }
  ).deployment;
  const defaultProvider = resources.find((r) => r.type === "pulumi:providers:adplatform" && r.urn.includes("::default"));
  expect(defaultProvider?.inputs?.token).toEqual({
    [SECRET_SIGNATURE]: "1b47061264138c4ac30d75fd1eb44270",
    ciphertext: expect.any(String),
  });
}

/** A Python program on the native face, ready for `pulumi` commands, and the virtualenv it runs in. */
export interface NativePythonProgram {
  readonly cli: CliSession;
  readonly venv: string;
}

/**
 * Writes a Python program into `dir` that runs in the virtualenv `scripts/native/ensure-python-venv`
 * makes (`pulumi` from PyPI and the generated SDK), with the plugin `pulumi-resource-adplatform`
 * on PATH as `node_modules/.bin` of an `npm install pulumi-adplatform` puts it there.
 */
export function openNativePythonProgram(dir: string, program: { name: string; description: string; main: string }): NativePythonProgram {
  if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-python"))) {
    throw new Error("no pulumi-language-python next to the CLI: scripts/ensure-pulumi --python builds it from its source");
  }
  const venv = execFileSync("bash", [path.join(REPO_ROOT, "scripts", "native", "ensure-python-venv")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .pop()!;
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${program.name}\ndescription: ${program.description}\nruntime:\n  name: python\n  options:\n    virtualenv: ${venv}\n`,
  );
  fs.writeFileSync(path.join(dir, "__main__.py"), program.main);
  const pluginDir = path.join(dir, "plugin-bin");
  fs.mkdirSync(pluginDir);
  fs.symlinkSync(NATIVE_PLUGIN_MAIN, path.join(pluginDir, "pulumi-resource-adplatform"));
  const cli = openCliSession(dir, { secrets: [TOKEN], extraEnv: { PATH: `${pulumiBinDir()}:${pluginDir}:${process.env.PATH ?? ""}` } });
  return { cli, venv };
}

/** Class C as the catalog gives it, at the platform's windows (spec, Limits 1-3): what the many-stack suites' bounds are of. */
export const CLASS_C_AT_REAL_WINDOWS: WindowLimits = {
  burst: RATE_CLASSES.C.burst,
  steady: RATE_CLASSES.C.steady,
  burstWindowMs: BURST_WINDOW_MS,
  steadyWindowMs: STEADY_WINDOW_MS,
};

/** A TypeScript project of many strategies for a whole test file, and what to undo after it. */
export interface StrategiesProject {
  /** The project's directory (set before the file's first test). */
  readonly dir: string;
  /** Undone after the file's last test, last first, before the directory goes. */
  readonly cleanups: (() => Promise<void> | void)[];
}

/**
 * A project whose program declares `count` strategies named by stack (so several stacks' records
 * on one simulator stay apart), linked to the built package, made before the file's tests and
 * removed after them with everything pushed on `cleanups`.
 */
export function useStrategiesProject(name: string, description: string, count: number): StrategiesProject {
  let dir = "";
  const cleanups: (() => Promise<void> | void)[] = [];
  const index = `import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

const stack = pulumi.getStack();
for (let i = 0; i < ${count}; i++) {
  new adp.BidStrategy(\`bids-\${i}\`, { name: \`\${stack} bids \${i}\`, strategy: "percent_add", value: 10 + i, maxValue: 3 });
}
`;
  beforeAll(() => {
    requireLanguageHost();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
    writeTypeScriptProgram(dir, { name, description, index });
    // npm run test:e2e builds the package first; the links reach it without an install.
    linkRepositoryPackage(dir);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    if (dir !== "") fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    cleanups,
  };
}
