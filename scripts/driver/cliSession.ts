/**
 * The Pulumi CLI as a user types it, in one program directory: every command runs the real `pulumi`
 * from scripts/ensure-pulumi (with the Node.js language host, which a `Pulumi.yaml` program with
 * `runtime: nodejs` needs) on a throwaway local backend, and can be echoed as `$ pulumi ...` with
 * its output streamed. Used by `npm run demo` when the language host exists, and by the user's-path
 * end-to-end suite.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiBinDir } from "./paths";
import { pulumiEnv } from "./stackSession";

/** What one command did. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A program directory with its own Pulumi home and backend. */
export interface CliSession {
  /** The program directory (holds Pulumi.yaml). */
  readonly dir: string;
  /** The environment every command runs with. */
  readonly env: Readonly<Record<string, string>>;
  /** Runs `pulumi <args>` in `dir`; resolves with the exit code (never rejects on a non-zero one). */
  pulumi(args: readonly string[], options?: { echo?: boolean }): Promise<CliResult>;
  /** Removes the Pulumi home and backend (not the program directory). */
  close(): void;
}

/** Whether the CLI's bin directory holds a Node.js language host (scripts/ensure-pulumi). */
export function hasLanguageHost(): boolean {
  return fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-nodejs"));
}

/** Quotes an argument for the echoed command line when it needs it. */
const shellWord = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

/**
 * Opens a CLI session on `dir`. `secrets` are values never echoed (they are replaced by `[secret]`
 * in the printed command line); `extraEnv` is added to every command's environment.
 */
export function openCliSession(
  dir: string,
  options: { secrets?: readonly string[]; extraEnv?: Readonly<Record<string, string>>; write?: (text: string) => void } = {},
): CliSession {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-cli-"));
  const backendDir = path.join(stateDir, "backend");
  fs.mkdirSync(backendDir, { recursive: true });
  fs.mkdirSync(path.join(stateDir, "home"), { recursive: true });
  const env = { ...pulumiEnv(stateDir, backendDir), ...options.extraEnv };
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const hide = (arg: string) => (options.secrets?.includes(arg) ? "[secret]" : shellWord(arg));
  const pulumi = path.join(pulumiBinDir(), "pulumi");
  return {
    dir,
    env,
    pulumi(args, { echo = false } = {}) {
      if (echo) write(`\n$ pulumi ${args.map(hide).join(" ")}\n`);
      return new Promise((resolve, reject) => {
        const child = spawn(pulumi, [...args], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (echo) write(chunk.toString());
        });
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          if (echo) write(chunk.toString());
        });
        child.on("error", reject);
        child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
      });
    },
    close() {
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
