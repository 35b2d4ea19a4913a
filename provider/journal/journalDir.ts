/**
 * Where the create journal lives (docs/ARCHITECTURE.md, "The create journal").
 *
 * Decision: the journal is on disk in the user's Pulumi home, not next to the limiter's state in
 * `/dev/shm`: the limiter's state may vanish with the machine (it only paces requests), while the
 * journal is what prevents a duplicate after a crash, so it must survive a reboot. The order:
 * `adplatform:journalDir` stack config (handed over by the plugin's `configure` and read by the SDK
 * in the program), then `ADPLATFORM_JOURNAL_DIR`, then `$PULUMI_HOME/adplatform/create-journal`,
 * else `~/.pulumi/adplatform/create-journal`. With a limits URL the journal is in that Redis
 * instead (`./redisCreateJournal`) and this directory is its fallback; a CI runner without one,
 * whose next run may be another machine, points the directory at one the runs share.
 */
import { homedir } from "node:os";
import { join } from "node:path";

/** The environment variable naming the journal directory. */
export const ENV_JOURNAL_DIR = "ADPLATFORM_JOURNAL_DIR";
/** The stack config key naming the journal directory. */
export const CONFIG_JOURNAL_DIR = "adplatform:journalDir";

let configuredDir: string | undefined;

/** Remembers the stack config's `adplatform:journalDir` (undefined or empty: not set). */
export function configureJournalDir(dir: string | undefined): void {
  configuredDir = dir !== undefined && dir.trim() !== "" ? dir : undefined;
}

/** The journal directory now (see the module comment for the order). */
export function journalDir(env: NodeJS.ProcessEnv = process.env): string {
  if (configuredDir !== undefined) return configuredDir;
  const fromEnv = env[ENV_JOURNAL_DIR];
  if (fromEnv !== undefined && fromEnv.trim() !== "") return fromEnv;
  const pulumiHome = env.PULUMI_HOME !== undefined && env.PULUMI_HOME.trim() !== "" ? env.PULUMI_HOME : join(homedir(), ".pulumi");
  return join(pulumiHome, "adplatform", "create-journal");
}
