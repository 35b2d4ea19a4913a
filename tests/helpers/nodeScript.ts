/**
 * `node -e <script> <args...>` as a process of its own, as a second process or machine of the
 * account would run: what it wrote and how it ended, collected once it closed.
 */
import { spawn, type SpawnOptions } from "node:child_process";

export interface ScriptRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `script` with `args` (`options.env` replaces the environment, as in `spawn`); rejects only when it cannot start. */
export function runNodeScript(script: string, args: readonly string[], options: SpawnOptions = {}): Promise<ScriptRun> {
  const child = spawn(process.execPath, ["-e", script, ...args], { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `runNodeScript`, resolving with the JSON it printed; rejects with its stderr when it exits other than 0. */
export async function nodeScriptJson<T>(what: string, script: string, args: readonly string[], options: SpawnOptions = {}): Promise<T> {
  const run = await runNodeScript(script, args, options);
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
