/**
 * The current build against the release it must stay compatible with: the newest release recorded in
 * tests/upgrade/releases/ that is not newer than package.json's version, compared face by face
 * (compatibility.ts). Used by `npm run upgrade:check` and tests/scripts/upgrade/releaseCheck.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../driver/paths";
import { breakingAllowed, schemaBreakingChanges, surfaceBreakingChanges, type PackageSchema } from "./compatibility";
import { RELEASE_FILES, SCHEMA_FILE, UPGRADE_DIR, releaseDir } from "./programs";
import type { SdkSurface } from "./sdkSurface";

/** The outcome of one check. */
export interface ReleaseCheck {
  readonly baseline: string;
  readonly current: string;
  readonly schema: readonly string[];
  readonly surface: readonly string[];
  /** The current version may break the baseline (its major, as npm's caret reads it, is newer). */
  readonly allowed: boolean;
}

const numeric = (version: string) => version.split(".").map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [numeric(a), numeric(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return false;
};

/** package.json's version. */
export function currentVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The newest recorded release not newer than `version`. */
export function baselineFor(version: string): string {
  const releases = fs
    .readdirSync(path.join(UPGRADE_DIR, "releases"))
    .filter((name) => /^\d+\.\d+\.\d+$/.test(name) && !newer(name, version))
    .sort((a, b) => (newer(a, b) ? -1 : newer(b, a) ? 1 : 0));
  if (releases[0] === undefined) throw new Error(`no release at or below ${version} in tests/upgrade/releases/`);
  return releases[0];
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, "utf8")) as T;

/** Compares the current schema and SDK surface (`surface`, read from the build) with the baseline release's. */
export function checkAgainstRelease(surface: SdkSurface, version = currentVersion()): ReleaseCheck {
  const baseline = baselineFor(version);
  const dir = releaseDir(baseline);
  return {
    baseline,
    current: version,
    schema: schemaBreakingChanges(readJson<PackageSchema>(path.join(dir, RELEASE_FILES.schema)), readJson<PackageSchema>(SCHEMA_FILE)),
    surface: surfaceBreakingChanges(readJson<SdkSurface>(path.join(dir, RELEASE_FILES.surface)), surface),
    allowed: breakingAllowed(baseline, version),
  };
}

/** The check as a reader wants it: what broke, and whether that fails. */
export function describeCheck(check: ReleaseCheck): { ok: boolean; text: string } {
  const changes = [...check.schema.map((line) => `  native schema: ${line}`), ...check.surface.map((line) => `  dynamic SDK: ${line}`)];
  if (changes.length === 0) return { ok: true, text: `no breaking change since ${check.baseline}\n` };
  const head = `${changes.length} breaking change(s) since ${check.baseline}:\n${changes.join("\n")}\n`;
  if (check.allowed) return { ok: true, text: `${head}allowed: ${check.current} is a new major version for users of ^${check.baseline}\n` };
  return {
    ok: false,
    text: `${head}Either keep the old shape (docs/development.md, "Releases"), or make the version a new major (${check.current} is within ^${check.baseline}) and say in CHANGELOG.md what users must change.\n`,
  };
}
