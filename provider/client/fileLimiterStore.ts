/**
 * The `LimiterStore` of one machine: an account's limiter state as a small JSON file, shared by the
 * machine's processes (the Pulumi program and the provider plugin spend on one account at once).
 * Synchronous: a transaction takes an exclusive lock file, reads, decides and writes in one step.
 *
 * - Directory: `ADPLATFORM_LIMITS_DIR` when set, else one per user in /dev/shm when writable, else
 *   in the OS temp directory (`sharedStateDirectory`); used only when private to this user
 *   (`ensurePrivateDirectory`: a store on any other throws at its first use).
 * - Name: a hash of the account key, so neither the token nor the registry key appears on disk
 *   (`sharedStatePath`).
 * - Lock: `<file>.lock`, created with O_EXCL (no link followed) and removed after; one older than
 *   `staleLockMs` is left over from a process that died holding it, and removed.
 * - Writes go to a new temporary file (`<file>.<pid>.<random>.tmp`, O_EXCL) renamed over the
 *   state, so a crash never leaves half a state; an unreadable or foreign file (a link included)
 *   reads as a fresh state (the server's `X-RateLimit-*` headers then bring the windows back in
 *   step).
 * - The first store opened on a directory removes the state files nobody wrote for `staleStateMs`.
 * - The requests in flight of a process that died are dropped before each transaction.
 */
import { createHash, randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, fstatSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { accountKey } from "./accountKey";
import { processAlive } from "./processAlive";
import { createNewFile, currentUid, ensurePrivateDirectory, readFileNoLink } from "../infrastructure";
import { emptyLimiterState, type LimiterState, LimiterStateSchema, type LimiterStore } from "./limiterStore";

// Decision: on Linux the files live in /dev/shm, the machine's memory-backed temp directory: every
// admission and every answer pays a lock-read-write cycle, which there costs a small fraction of
// what it costs in a disk-backed /tmp. Elsewhere the OS temp directory.
// The default is one directory per user (`pulumi-adplatform-limits-<uid>`): both places are
// writable by every local user and empty after a reboot, so one shared name would be anyone's to
// make first, and that directory is then refused (`ensurePrivateDirectory`).
/**
 * Directory of the state files: `ADPLATFORM_LIMITS_DIR` when set, else this user's in /dev/shm
 * when writable (Linux), else in the OS temp directory. Every process on one account must see the
 * same directory to share its windows; a directory of its own keeps a run apart from earlier ones
 * (the test suites give each test file one: a simulator on a reused port is the same account key).
 */
export function sharedStateDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.ADPLATFORM_LIMITS_DIR;
  if (configured) return configured;
  const uid = currentUid();
  const name = uid === undefined ? "pulumi-adplatform-limits" : `pulumi-adplatform-limits-${uid}`;
  const shm = "/dev/shm";
  try {
    accessSync(shm, constants.W_OK);
    if (statSync(shm).isDirectory()) return join(shm, name);
  } catch {
    // no /dev/shm here
  }
  return join(tmpdir(), name);
}

/**
 * The state file of an account: named by a hash of the account key (itself a hash of base URL and
 * token), so neither the token nor the registry key appears on disk.
 */
export function sharedStatePath(baseUrl: string, token: string, directory: string = sharedStateDirectory()): string {
  return sharedStatePathForKey(accountKey(baseUrl, token), directory);
}

/** `sharedStatePath` from an account key. */
export function sharedStatePathForKey(key: string, directory: string = sharedStateDirectory()): string {
  return join(directory, `${sharedStateName(key)}.json`);
}

/**
 * The name of an account's shared state in any store: 32 hex digits of a hash of the account key,
 * so neither the token nor the key itself is ever stored or shown.
 */
export function sharedStateName(key: string): string {
  return createHash("sha256").update("limiter-state\u0000").update(key).digest("hex").slice(0, 32);
}

/** Tunables of `FileLimiterStore`. */
export interface FileLimiterStoreOptions {
  /** A lock file older than this is left over from a crashed process and removed, ms. */
  readonly staleLockMs: number;
  /** State files of any account untouched for this long are removed when a store opens, ms. */
  readonly staleStateMs: number;
}

// Decision: a lock is held only to read, decide and write a ~1 KB file, so one older than 2 s
// belongs to a process that died holding it. A state file not written for 10 minutes holds only
// windows long ended (the steady window is 60 s) and requests in flight of calls past their
// 2-minute retry budget: nothing a process could still use.
/** Defaults of `FileLimiterStore`, with units. */
export const FILE_STORE_DEFAULTS: FileLimiterStoreOptions = Object.freeze({ staleLockMs: 2_000, staleStateMs: 600_000 });

/**
 * A state file, its lock or a temporary write of one (`<32 hex>.json`, `.json.lock`,
 * `.json.<pid>.<random>.tmp`, and `.json.<pid>.tmp` of earlier versions).
 */
const STATE_FILE = /^[0-9a-f]{32}\.json(\.lock|\.\d+(\.[0-9a-f]+)?\.tmp)?$/;

/** Directories this process has swept (once each is enough). */
const swept = new Set<string>();

/**
 * Removes the state files (and their locks and temporary writes) in `directory` that nobody wrote
 * for `olderThanMs`: every account and every test run leaves one behind, and the directory would
 * otherwise only grow. Only names this module writes are touched; errors (a file gone meanwhile,
 * no permission) are ignored. Returns the names removed.
 */
export function sweepStaleStates(directory: string, olderThanMs: number, nowMs: number = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!STATE_FILE.test(name)) continue;
    const file = join(directory, name);
    try {
      if (nowMs - statSync(file).mtimeMs < olderThanMs) continue;
      unlinkSync(file);
      removed.push(name);
    } catch {
      // gone or not ours to remove: leave it
    }
  }
  return removed;
}

const SPIN = new Int32Array(new SharedArrayBuffer(4));

/** What tells one write of the state file from another. */
interface FileStamp {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

const stampOf = (stats: { ino: number; size: number; mtimeMs: number }): FileStamp => ({
  ino: stats.ino,
  size: stats.size,
  mtimeMs: stats.mtimeMs,
});
const sameStamp = (a: FileStamp, b: FileStamp) => a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** An account's limiter state in a file (see the file comment). */
export class FileLimiterStore implements LimiterStore {
  private readonly options: FileLimiterStoreOptions;
  private readonly lockPath: string;
  /** Why the directory is not used (`ensurePrivateDirectory`), thrown by every transaction and load. */
  private readonly unusable: Error | undefined;
  /** This process's last write: the file's stamp after it and the state written. */
  private written: { stamp: FileStamp; state: LimiterState } | undefined;

  constructor(
    readonly path: string,
    options: Partial<FileLimiterStoreOptions> = {},
  ) {
    this.options = { ...FILE_STORE_DEFAULTS, ...options };
    this.lockPath = `${path}.lock`;
    const directory = dirname(path);
    try {
      ensurePrivateDirectory(directory);
    } catch (error) {
      this.unusable = error instanceof Error ? error : new Error(`${directory} cannot be used: ${String(error)}`);
      return;
    }
    if (!swept.has(directory)) {
      swept.add(directory);
      sweepStaleStates(directory, this.options.staleStateMs);
    }
  }

  transact<T>(fn: (state: LimiterState) => T): T {
    this.checkUsable();
    this.lock();
    try {
      const state = this.readIfChanged();
      this.written = undefined; // until this write lands, the copy in memory may be ahead of the file
      dropDeadProcesses(state);
      const result = fn(state);
      // A new name each write: a name nobody can have planted anything at beforehand.
      const temporary = `${this.path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      const fd = createNewFile(temporary);
      let stamp: FileStamp;
      try {
        writeSync(fd, JSON.stringify(state));
        stamp = stampOf(fstatSync(fd));
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
      this.written = { stamp, state };
      return result;
    } finally {
      try {
        unlinkSync(this.lockPath);
      } catch {
        // removed as stale by another process: nothing left to release
      }
    }
  }

  /** The state as last written. No lock: every write renames a whole file into place. */
  load(): LimiterState {
    this.checkUsable();
    return this.readIfChanged();
  }

  /**
   * The state as this process last wrote it when the file is still that write (every write renames
   * a new file into place, so another process's write brings a new inode number; inode, size and
   * modification time together also catch a file rewritten in place); otherwise read and
   * validated. While one process does most of the work, this spares most looks the read, parse and
   * validation of the file.
   */
  private readIfChanged(): LimiterState {
    if (this.written) {
      try {
        if (sameStamp(stampOf(statSync(this.path)), this.written.stamp)) return this.written.state;
      } catch {
        // gone: read it as missing below
      }
    }
    return this.read();
  }

  private read(): LimiterState {
    let text: string;
    try {
      text = readFileNoLink(this.path);
    } catch {
      return emptyLimiterState();
    }
    try {
      const parsed = LimiterStateSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : emptyLimiterState();
    } catch {
      return emptyLimiterState();
    }
  }

  private checkUsable(): void {
    if (this.unusable !== undefined) throw this.unusable;
  }

  /** Takes the lock, waiting (synchronously, in 0.1 ms steps) while another process holds it. */
  private lock(): void {
    for (;;) {
      try {
        closeSync(createNewFile(this.lockPath));
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      try {
        // Stale also when dated ahead (planted, or a clock stepped back): waiting for a lock to age
        // that does not would never end.
        if (Math.abs(Date.now() - statSync(this.lockPath).mtimeMs) > this.options.staleLockMs) rmSync(this.lockPath, { force: true });
      } catch (error) {
        // Released between our open and stat: try again at once.
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        // A stale lock that cannot be removed (a directory in its place, no permission) would be
        // tried again at once, for ever.
        const reason = (error as NodeJS.ErrnoException).code ?? String(error);
        throw new Error(
          `the rate-limit lock ${this.lockPath} is stale and cannot be removed (${reason}): remove it, or set ADPLATFORM_LIMITS_DIR to another directory`,
          { cause: error },
        );
      }
      Atomics.wait(SPIN, 0, 0, 0.1);
    }
  }
}

/**
 * Drops the requests in flight of limiters whose process died (a dead process has nothing in flight
 * any more). The entries are keyed `<pid>:<n>:...` (`limiterId`); this machine's pids are the only
 * ones in the file.
 */
function dropDeadProcesses(state: LimiterState): void {
  for (const id of Object.keys(state.inFlight)) {
    const pid = Number(id.split(":")[0]);
    if (pid !== process.pid && !processAlive(pid)) delete state.inFlight[id];
  }
}
