/**
 * The plugin as one executable: Node.js's own binary for the target (scripts/dist/nodeRuntimes.ts) with
 * the bundled provider injected as a single executable application (Node.js's `--experimental-sea-config`
 * blob, put in by postject), so that it runs on a machine with no Node.js.
 *
 * One blob serves every target: it holds the script only (no V8 snapshot or code cache, which are
 * specific to a processor and a build), and it is made by the pinned Node.js itself, since Node.js reads
 * only a blob its own version wrote; of the pinned binaries, the one this machine runs makes it.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import {
  SEA_FUSE,
  SEA_MACHO_SEGMENT,
  SEA_RESOURCE,
  executableFormat,
  seaBlob,
  withoutMachOSignature,
  withoutPeSignature,
} from "./executableFormat";
import { NODE_RUNTIMES, NODE_RUNTIME_VERSION, type SingleExecutableTarget } from "./nodeRuntimes";

/** What each target's executable must be, checked on every one written. */
const EXPECTED_FORMAT: Readonly<Record<SingleExecutableTarget, ReturnType<typeof executableFormat>>> = {
  "linux-amd64": { format: "elf", arch: "x64" },
  "linux-arm64": { format: "elf", arch: "arm64" },
  "darwin-amd64": { format: "mach-o", arch: "x64" },
  "windows-amd64": { format: "pe", arch: "x64" },
};

/**
 * Runs first in the executable: in a single executable `require` loads built-in modules only and has no
 * `resolve`; this gives the bundle the `require` it has when lib/provider.js runs from the launcher, one
 * that resolves beside the file and finds nothing there (the bundle holds every dependency).
 */
const PROLOGUE = `require = require("node:module").createRequire(__filename);\n`;

/** The target this machine runs, if it is one of the single-executable targets. */
export function hostTarget(): SingleExecutableTarget | undefined {
  const os = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform as string];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  const target = `${os}-${arch}`;
  return target in NODE_RUNTIMES ? (target as SingleExecutableTarget) : undefined;
}

const sha512 = (file: string) => `sha512-${createHash("sha512").update(fs.readFileSync(file)).digest("base64")}`;

/**
 * Node.js's binary for `target`, unpacked into `workDir` from its npm tarball. The tarball is kept in
 * `cacheDir` and fetched with `npm pack` (npm's cache first) when that copy is missing or differs from
 * the pinned integrity; a fetched tarball that differs too is an error.
 */
export function nodeRuntime(target: SingleExecutableTarget, cacheDir: string, workDir: string): string {
  const { name, integrity, binary } = NODE_RUNTIMES[target];
  const tarball = path.join(cacheDir, `${name}-${NODE_RUNTIME_VERSION}.tgz`);
  if (!fs.existsSync(tarball) || sha512(tarball) !== integrity) {
    fs.mkdirSync(cacheDir, { recursive: true });
    execFileSync(
      "npm",
      ["pack", `${name}@${NODE_RUNTIME_VERSION}`, "--pack-destination", cacheDir, "--prefer-offline", "--ignore-scripts", "--silent"],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    const actual = sha512(tarball);
    if (actual !== integrity) {
      fs.rmSync(tarball, { force: true });
      throw new Error(`${name}@${NODE_RUNTIME_VERSION} from npm is ${actual}, pinned ${integrity} (scripts/dist/nodeRuntimes.ts)`);
    }
  }
  const dir = path.join(workDir, `node-${target}`);
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", dir, binary]);
  return path.join(dir, binary);
}

/**
 * The single-executable blob of `bundle`, written by `node` (the pinned Node.js this machine runs). The
 * blob names its script by the path the configuration gives, which stack traces show: a bare name, not
 * this machine's directories.
 */
export function prepareBlob(node: string, bundle: string, workDir: string): string {
  const main = "pulumi-resource-adplatform.js";
  // The prologue goes first; the bundle's `#!` line would then be a syntax error.
  fs.writeFileSync(path.join(workDir, main), PROLOGUE + fs.readFileSync(bundle, "utf8").replace(/^#!.*\n/, ""));
  const blob = "sea.blob";
  const config = { main, output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false };
  fs.writeFileSync(path.join(workDir, "sea-config.json"), JSON.stringify(config));
  execFileSync(node, ["--experimental-sea-config", "sea-config.json"], { cwd: workDir, stdio: ["ignore", "ignore", "inherit"] });
  return path.join(workDir, blob);
}

/**
 * Writes `out`: `node` (the target's binary) without its signature and with `blob` injected, checked
 * to be the target's format and processor and to hold exactly `blob` where Node.js looks for it.
 */
export async function writeSingleExecutable(target: SingleExecutableTarget, node: string, blob: string, out: string): Promise<void> {
  const original = fs.readFileSync(node);
  const format = executableFormat(original).format;
  const unsigned = format === "mach-o" ? withoutMachOSignature(original) : format === "pe" ? withoutPeSignature(original) : original;
  fs.writeFileSync(out, unsigned, { mode: 0o755 });
  const macho = format === "mach-o" ? ["--macho-segment-name", SEA_MACHO_SEGMENT] : [];
  try {
    await promisify(execFile)(
      process.execPath,
      [require.resolve("postject/dist/cli.js"), out, SEA_RESOURCE, blob, "--sentinel-fuse", SEA_FUSE, ...macho],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`postject of ${target} failed:\n${stdout ?? ""}${stderr ?? ""}`, { cause: error });
  }
  const written = fs.readFileSync(out);
  const actual = executableFormat(written);
  const expected = EXPECTED_FORMAT[target];
  if (actual.format !== expected.format || actual.arch !== expected.arch)
    throw new Error(`${out} is ${actual.format} ${actual.arch}, ${target} runs ${expected.format} ${expected.arch}`);
  if (!seaBlob(written)?.equals(fs.readFileSync(blob))) throw new Error(`${out} does not hold the application where Node.js looks for it`);
}

/**
 * Resolves once `executable` (this machine's) has started as a plugin: printed the port it serves on,
 * as the engine waits for; rejects with its stderr when it exits first or prints nothing in `timeoutMs`.
 */
export function startsAsPlugin(executable: string, timeoutMs = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => finish(new Error(`${executable} printed no port in ${timeoutMs / 1000} s:\n${stderr}`)), timeoutMs);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      child.kill();
      if (error) reject(error);
      else resolve();
    };
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/^\d+\n/.test(stdout)) finish();
    });
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    child.once("error", finish);
    child.once("exit", (code) => finish(new Error(`${executable} exited ${code} before printing its port:\n${stderr}`)));
  });
}
