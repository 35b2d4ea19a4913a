/**
 * Jest `setupFiles`: each test file gets a limiter state directory of its own
 * (`ADPLATFORM_LIMITS_DIR`) and a create journal directory (`ADPLATFORM_JOURNAL_DIR`), both
 * inherited by the plugin and CLI processes it starts. The state file of
 * an account is named by base URL and token, and the simulators of the suites listen on ports the
 * OS hands out again: with the machine-wide directory, a file left by an earlier test or run on a
 * reused port would open a fresh window with that run's spending charged as another process's
 * share, and a test's cost assertions would read more than the test sent. The directories live
 * under the run's root (`limiterStateRoot.ts`), removed when the run ends.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIMITS_ROOT_VARIABLE } from "./limiterStateRoot";

const root = process.env[LIMITS_ROOT_VARIABLE] ?? join(tmpdir(), "adplatform-test-limits");
mkdirSync(root, { recursive: true });
process.env.ADPLATFORM_LIMITS_DIR = mkdtempSync(join(root, "file-"));
// Likewise a create journal of its own (provider/resources/journal), so no test
// writes into the user's Pulumi home or finds another file's entries.
process.env.ADPLATFORM_JOURNAL_DIR = mkdtempSync(join(root, "journal-"));
