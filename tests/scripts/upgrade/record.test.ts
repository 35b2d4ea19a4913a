/**
 * What `npm run upgrade:record` committed (scripts/upgrade/record.ts): every program recorded for the
 * newest release, no token in clear in any recorded file, the stacks' secrets under the fixed
 * passphrase, and the dynamic stacks holding the serialized shim their release wrote, which the
 * upgrade suite (tests/e2e/upgrade.test.ts) replays.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { UPGRADE_DIR, UPGRADE_PROGRAMS, recordingDir } from "../../../scripts/upgrade/programs";
import { RECORDING_FILES, tokensInClear, type RecordingInfo } from "../../../scripts/upgrade/recordedStack";
import { baselineFor, currentVersion } from "../../../scripts/upgrade/releaseCheck";

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

interface ExportedStack {
  deployment: { secrets_providers?: { type: string }; resources: { type: string; inputs?: Record<string, unknown> }[] };
}

it("records every program for the newest release", () => {
  const release = baselineFor(currentVersion());
  for (const program of UPGRADE_PROGRAMS) {
    const dir = recordingDir(program, release);
    expect(Object.values(RECORDING_FILES).filter((name) => !fs.existsSync(path.join(dir, name)))).toEqual([]);
    const info = JSON.parse(fs.readFileSync(path.join(dir, RECORDING_FILES.recording), "utf8")) as RecordingInfo;
    expect(info.release).toBe(release);
  }
});

it("holds no token in clear in any recorded file", () => {
  const files = filesUnder(path.join(UPGRADE_DIR, "recorded"));
  expect(files.length).toBeGreaterThanOrEqual(UPGRADE_PROGRAMS.length * Object.keys(RECORDING_FILES).length);
  expect(files.filter((file) => tokensInClear(fs.readFileSync(file, "utf8")).length > 0)).toEqual([]);
});

it("keeps each stack's secrets under the passphrase provider, and each dynamic resource's shim as its release wrote it", () => {
  for (const file of filesUnder(path.join(UPGRADE_DIR, "recorded")).filter((f) => f.endsWith(RECORDING_FILES.stack))) {
    const stack = JSON.parse(fs.readFileSync(file, "utf8")) as ExportedStack;
    expect(stack.deployment.secrets_providers?.type).toBe("passphrase");
    for (const resource of stack.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/adplatform:"))) {
      expect(resource.inputs?.__provider).toEqual(expect.stringContaining('require("pulumi-adplatform/provider")'));
    }
  }
});
