/**
 * One stack of a project on a throwaway local backend, driven through the Automation API with the
 * real Pulumi CLI from scripts/ensure-pulumi (docs/development.md, "The Pulumi CLI, the demo and the end-to-end tests").
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type ConfigMap, type Stack } from "@pulumi/pulumi/automation";
import { pulumiBinDir } from "./paths";
import { linkPackage, loadProgram, packageAsProgramSees, readProject, type ProgramFn, type ProjectInfo } from "./project";

/** The passphrase of the throwaway stacks' secrets (the same default scripts/pulumi-env sets). */
export const DEMO_PASSPHRASE = "adplatform-e2e-demo-passphrase";

/** How to open a stack. */
export interface OpenStackOptions {
  /** Folder holding the project's Pulumi.yaml (the root of the repository, or an example). */
  readonly projectDir: string;
  /** Stack name; unique per process, since its settings file lands in `projectDir`. */
  readonly stackName: string;
  /** `{base_url}` of the API (the simulator's URL). */
  readonly baseUrl: string;
  /** API token, stored as a secret in the stack config (`adplatform:token`). */
  readonly token: string;
  /** The project's own config keys (unqualified, e.g. `modifierValue`). */
  readonly config?: Readonly<Record<string, string>>;
  /** Runs instead of the project's program (tests that need a variant). */
  readonly program?: ProgramFn;
  /** Where PULUMI_HOME and the backend live; default a fresh temp dir, removed by `close`. */
  readonly stateDir?: string;
}

/** An open stack and what is needed to clean it up. */
export interface StackSession {
  readonly stack: Stack;
  readonly project: ProjectInfo;
  /** The local backend folder (`file://` URL target). */
  readonly backendDir: string;
  /**
   * Runs the CLI itself with the stack's environment in the project folder, e.g.
   * `["stack", "export", "--stack", name]` (the Automation API's `exportStack` adds `--show-secrets`).
   * Resolves with the exit code instead of rejecting on a non-zero one.
   */
  cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Sets project config keys (unqualified) in the stack. */
  setProjectConfig(values: Readonly<Record<string, string>>): Promise<void>;
  /** Removes the stack settings file from the project folder and the state folder (when ours). */
  close(): Promise<void>;
}

/**
 * The environment of every CLI call: an offline-safe Pulumi with its own home and `file://`
 * backend, the CLI's bin directory first on PATH so the CLI finds the dynamic-provider launcher.
 * Mirrors scripts/pulumi-env, so the driver also works without sourcing it (e.g. `npx jest`).
 */
export function pulumiEnv(stateDir: string, backendDir: string): Record<string, string> {
  const bin = pulumiBinDir();
  return {
    PATH: [bin, ...(process.env.PATH ?? "").split(path.delimiter).filter((dir) => dir !== "" && dir !== bin)].join(path.delimiter),
    PULUMI_HOME: path.join(stateDir, "home"),
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? DEMO_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
  };
}

/** The CLI from scripts/ensure-pulumi, with a clear error when it has not been run. */
async function pulumiCommand(): Promise<PulumiCommand> {
  const bin = pulumiBinDir();
  if (!fs.existsSync(path.join(bin, "pulumi"))) {
    throw new Error(`${bin}/pulumi not found: run scripts/ensure-pulumi (npm run pulumi:ensure) first`);
  }
  // PulumiCommand.get looks for <root>/bin/pulumi.
  return PulumiCommand.get({ root: path.dirname(bin), skipVersionCheck: true });
}

/** Creates the stack on a fresh backend with the API settings in its config. */
export async function openStack(options: OpenStackOptions): Promise<StackSession> {
  const project = readProject(options.projectDir);
  linkPackage(project.programDir);
  const program = options.program ?? loadProgram(project);
  const sdk = packageAsProgramSees(project);

  const ownState = options.stateDir === undefined;
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-e2e-"));
  const backendDir = fs.mkdtempSync(path.join(stateDir, "backend-"));
  fs.mkdirSync(path.join(stateDir, "home"), { recursive: true });

  const envVars = pulumiEnv(stateDir, backendDir);
  const command = await pulumiCommand();
  const stack = await LocalWorkspace.createOrSelectStack(
    {
      projectName: project.name,
      stackName: options.stackName,
      // Each run starts with an empty data-source cache: the cache lives as long as the process,
      // and this process runs the program many times (docs/data-sources.md: one request per distinct read).
      program: async () => {
        sdk.clearDataSourceCache();
        return program();
      },
    },
    {
      // The project folder holds Pulumi.yaml (loaded, never rewritten, since no projectSettings
      // are passed); the CLI starts the dynamic-provider plugin in the program folder under it.
      workDir: project.projectDir,
      envVars,
      pulumiCommand: command,
    },
  );

  const settingsFile = path.join(project.projectDir, `Pulumi.${options.stackName}.yaml`);
  const session: StackSession = {
    stack,
    project,
    backendDir,
    cli(args) {
      return new Promise((resolve) => {
        execFile(
          command.command,
          [...args],
          { cwd: project.projectDir, env: { ...process.env, ...envVars }, maxBuffer: 64 * 1024 * 1024 },
          (err, stdout, stderr) => {
            const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
            resolve({ code, stdout, stderr });
          },
        );
      });
    },
    async setProjectConfig(values) {
      const config: ConfigMap = {};
      for (const [key, value] of Object.entries(values)) config[`${project.name}:${key}`] = { value };
      await stack.setAllConfig(config);
    },
    async close() {
      fs.rmSync(settingsFile, { force: true });
      fs.rmSync(backendDir, { recursive: true, force: true });
      if (ownState) fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
  try {
    await stack.setAllConfig({
      "adplatform:baseUrl": { value: options.baseUrl },
      "adplatform:token": { value: options.token, secret: true },
    });
    await session.setProjectConfig(options.config ?? {});
  } catch (err) {
    await session.close();
    throw err;
  }
  return session;
}
