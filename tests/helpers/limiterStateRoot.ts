/**
 * One root directory per Jest run for the per-file limiter state directories of
 * `isolatedLimiterState.ts`: created by the run's `globalSetup` before the workers start (they
 * inherit its path) and removed by its `globalTeardown` after the last test file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Environment variable holding the run's root. */
export const LIMITS_ROOT_VARIABLE = "ADPLATFORM_TEST_LIMITS_ROOT";

export function setup(): void {
  process.env[LIMITS_ROOT_VARIABLE] = mkdtempSync(join(tmpdir(), "adplatform-test-limits-"));
}

export function teardown(): void {
  const root = process.env[LIMITS_ROOT_VARIABLE];
  if (root) rmSync(root, { recursive: true, force: true });
}
