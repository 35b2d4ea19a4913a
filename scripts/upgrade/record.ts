/**
 * `npm run upgrade:record [-- <program>...]`: records the release this checkout is (docs/development.md,
 * "Releases"), once, at the release's commit:
 *
 * - its native schema and its SDK surface, into tests/upgrade/releases/<version>/, the baseline
 *   `npm run upgrade:check` compares later builds with;
 * - for each upgrade program (scripts/upgrade/programs.ts), the state after `pulumi up` against a
 *   fresh simulator, into tests/upgrade/recorded/<program>/<version>/, which tests/e2e/upgrade.test.ts
 *   replays with every later build.
 *
 * What exists is never overwritten. Each recording is checked before it is written: the release
 * previews its own stack with no changes, and no token is in clear in what is written.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../driver/paths";
import { startSimulator } from "../../simulator";
import { UPGRADE_PROGRAMS, recordingDir, releaseDir, RELEASE_FILES, SCHEMA_FILE, SDK_ENTRY, type UpgradeProgram } from "./programs";
import { readSdkSurface, surfaceText } from "./sdkSurface";
import { RECORDING_FILES, openProgram, simulatorRecords, tokensInClear, type RecordingInfo } from "./recordedStack";

async function record(program: UpgradeProgram, release: string): Promise<void> {
  const dir = recordingDir(program, release);
  if (fs.existsSync(dir)) throw new Error(`${path.relative(REPO_ROOT, dir)} exists: a release is recorded once`);
  const sim = await startSimulator({ port: 0 });
  const run = await openProgram(program, sim.url).catch(async (error: unknown) => {
    await sim.close();
    throw error;
  });
  try {
    await run.pulumi(["up", "--yes", "--skip-preview"]);
    await run.pulumi(["preview", "--expect-no-changes"]);
    const stack = (await run.pulumi(["stack", "export"])).stdout;
    const info: RecordingInfo = {
      release,
      pulumi: (await run.pulumi(["version"])).stdout.trim(),
      baseUrl: sim.url,
    };
    const files: Record<string, string> = {
      [RECORDING_FILES.stack]: stack,
      [RECORDING_FILES.simulator]: `${JSON.stringify(simulatorRecords(sim, program.accounts), null, 2)}\n`,
      [RECORDING_FILES.recording]: `${JSON.stringify(info, null, 2)}\n`,
    };
    for (const [name, text] of Object.entries(files)) {
      const leaked = tokensInClear(text);
      if (leaked.length > 0) throw new Error(`${program.name}: ${name} would hold ${leaked.length} token(s) in clear; nothing written`);
    }
    fs.mkdirSync(dir, { recursive: true });
    // "wx": a new file, never through an existing name or link.
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text, { flag: "wx", mode: 0o644 });
    process.stdout.write(`recorded ${path.relative(REPO_ROOT, dir)}\n`);
  } finally {
    run.close();
    await sim.close();
  }
}

/** The release's schema and SDK surface, the baseline of later compatibility checks. */
function recordRelease(release: string): void {
  const dir = releaseDir(release);
  if (fs.existsSync(dir)) return;
  const schema = fs.readFileSync(SCHEMA_FILE, "utf8");
  if (!schema.includes(`"version": "${release}"`))
    throw new Error(`${path.relative(REPO_ROOT, SCHEMA_FILE)} is not ${release}'s: run npm run generate`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, RELEASE_FILES.schema), schema, { flag: "wx", mode: 0o644 });
  fs.writeFileSync(path.join(dir, RELEASE_FILES.surface), surfaceText(readSdkSurface(SDK_ENTRY)), { flag: "wx", mode: 0o644 });
  process.stdout.write(`recorded ${path.relative(REPO_ROOT, dir)}\n`);
}

async function main(): Promise<void> {
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !UPGRADE_PROGRAMS.some((p) => p.name === name));
  if (unknown.length > 0)
    throw new Error(`unknown program(s) ${unknown.join(", ")}; known: ${UPGRADE_PROGRAMS.map((p) => p.name).join(", ")}`);
  if (names.length === 0) recordRelease(version);
  for (const program of UPGRADE_PROGRAMS.filter((p) => names.length === 0 || names.includes(p.name))) {
    if (fs.existsSync(recordingDir(program, version))) process.stdout.write(`${program.name} ${version}: recorded already\n`);
    else await record(program, version);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`upgrade:record: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
