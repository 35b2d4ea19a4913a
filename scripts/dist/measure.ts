/**
 * What each plugin archive of dist/ weighs, and how long the plugin of this machine's single executable
 * and of the launcher archive (darwin-arm64's, whose launcher and bundle run on any POSIX machine with
 * Node.js) take from start to their first answer: the port they print for the engine, before which the
 * engine can ask nothing. Runs alternate between the two so that the machine's load falls on both alike.
 *
 *   node scripts/run-ts.js scripts/dist/measure.ts [runs]      (after npm run dist; default 11 runs)
 *
 * Prints medians with the spread (min-max); the numbers go in docs/installation-configuration.md.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hostTarget } from "./singleExecutable";

const DIST = path.resolve(__dirname, "..", "..", "dist");
const runs = Number(process.argv[2] ?? 11);

/** Milliseconds from spawning `command` to its first output on stdout; the process is then killed. */
function firstAnswer(command: string): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [], { stdio: ["ignore", "pipe", "inherit"] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${command} printed nothing in 60 s`));
    }, 60_000);
    child.stdout.once("data", () => {
      clearTimeout(timer);
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill();
    });
    child.once("error", reject);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const summary = (values: number[]) =>
  `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;

async function main(): Promise<void> {
  const archives = fs.readdirSync(DIST).filter((name) => name.startsWith("pulumi-resource-adplatform-") && name.endsWith(".tar.gz"));
  for (const name of archives.sort()) {
    const unpacked = execFileSync("tar", ["-tvzf", path.join(DIST, name)], { encoding: "utf8" })
      .trim()
      .split("\n")
      .reduce((sum, line) => sum + Number(line.split(/\s+/)[2]), 0);
    console.log(`${name}: ${(fs.statSync(path.join(DIST, name)).size / 1e6).toFixed(1)} MB, ${(unpacked / 1e6).toFixed(1)} MB unpacked`);
  }
  const host = hostTarget();
  if (host === undefined || host.startsWith("windows")) throw new Error("measures on linux or darwin, with a single executable for it");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-measure-"));
  try {
    const plugins: Record<string, string> = {};
    for (const target of [host, "darwin-arm64"]) {
      const root = path.join(dir, target);
      fs.mkdirSync(root);
      execFileSync("tar", [
        "-xzf",
        path.join(
          DIST,
          archives.find((name) => name.endsWith(`-${target}.tar.gz`))!,
        ),
        "-C",
        root,
      ]);
      plugins[target === host ? `single executable (${host})` : "bundle and launcher (darwin-arm64's, with this Node.js)"] = path.join(
        root,
        "pulumi-resource-adplatform",
      );
    }
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(plugins).map((k) => [k, []]));
    for (let i = 0; i < runs; i++) for (const [label, command] of Object.entries(plugins)) times[label]!.push(await firstAnswer(command));
    for (const [label, values] of Object.entries(times)) console.log(`${label}: first answer after ${summary(values)}, median of ${runs}`);
    console.log(`Node.js on PATH: ${process.version}; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`measure: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
