/**
 * Where things are, for the end-to-end driver (scripts/demo and tests/e2e).
 */
import * as path from "node:path";

/** The repository root (holds package.json, bin/, node_modules/ and the root Pulumi.yaml). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** Folder of the example programs users can copy. */
export const EXAMPLES_DIR = path.join(REPO_ROOT, "examples");

/**
 * The bin directory scripts/ensure-pulumi fills (`pulumi`, the dynamic-provider launcher, and the
 * language host when one exists): the newest CLI's with `ADPLATFORM_MATRIX=newest` (scripts/matrix/run).
 * `PULUMI_BIN` overrides it, as in scripts/pulumi-env.
 */
export function pulumiBinDir(): string {
  const dir = process.env.ADPLATFORM_MATRIX === "newest" ? ".pulumi-cli-newest" : ".pulumi-cli";
  return process.env.PULUMI_BIN ?? path.join(REPO_ROOT, dir, "bin");
}
