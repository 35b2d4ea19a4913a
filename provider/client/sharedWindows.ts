/**
 * Where processes on one machine share an account's rate-limit windows (spec, Authentication 3:
 * limits apply per account; the Pulumi program process and the provider plugin process spend on
 * the same account at once).
 *
 * Design: the account's limiter state (both windows of every rate class, the cost admitted, a
 * `Retry-After` pause, and the requests in flight of every limiter) lives in one small JSON file
 * per account in the OS temp directory. Every admission and every answer of every process reads,
 * changes and writes it under an exclusive lock file, so the processes of one machine
 * behave as one limiter: one budget per window, one in-flight cap, no collisions at window starts.
 */
import { createHash } from "node:crypto";
import { accessSync, closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { accountKey } from "./accountKey";
import { InFlightCapStateSchema } from "./inFlightCap";
import { RateClassStateSchema } from "./rateClassWindows";

// Decision (measured on the benchmark machine): on Linux the files live in /dev/shm, the machine's
// memory-backed temp directory, where a lock-read-write cycle takes ~60 µs; in a disk-backed /tmp
// it took ~800 µs, a real share of a scaled burst window. Elsewhere the OS temp directory.
/**
 * Directory of the shared state files: `ADPLATFORM_LIMITS_DIR` when set, else /dev/shm when
 * writable (Linux), else the OS temp directory. Every process on one account must see the same
 * directory to share its windows; a directory of its own keeps a run apart from earlier ones (the
 * test suites give each test file one: a simulator on a reused port is the same account key).
 */
export function sharedStateDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.ADPLATFORM_LIMITS_DIR;
  if (configured) return configured;
  const shm = "/dev/shm";
  try {
    accessSync(shm, constants.W_OK);
    if (statSync(shm).isDirectory()) return join(shm, "pulumi-adplatform-limits");
  } catch {
    // no /dev/shm here
  }
  return join(tmpdir(), "pulumi-adplatform-limits");
}

/**
 * The shared state file of an account: named by a hash of the account key (itself a hash of base
 * URL and token), so neither the token nor the registry key appears on disk.
 */
export function sharedStatePath(baseUrl: string, token: string, directory: string = sharedStateDirectory()): string {
  return sharedStatePathForKey(accountKey(baseUrl, token), directory);
}

/** `sharedStatePath` from an account key. */
export function sharedStatePathForKey(key: string, directory: string = sharedStateDirectory()): string {
  const name = createHash("sha256").update("limiter-state\u0000").update(key).digest("hex").slice(0, 32);
  return join(directory, `${name}.json`);
}

/** The shared file's shape (version 1). Times are on the shared (epoch) clock, ms. */
export const SharedLimiterStateSchema = z.object({
  version: z.literal(1),
  classes: z.record(z.string(), RateClassStateSchema),
  /** End of a `Retry-After` pause of the whole account; null when none. */
  pausedUntil: z.number().nullable(),
  /** Requests in flight per limiter (`<pid>:<n>`), so the machine keeps one in-flight cap. */
  inFlight: z.record(z.string(), z.number()),
  /**
   * The machine's in-flight cap and what it learned of the server's in-flight limit (spec, Limits
   * 6): the ceiling a `Retry-After: -1` showed (null: none) and when the cap was last lowered
   * (null: never), so a process that starts or never got refused uses what another one learned
   * instead of learning it again with refusals of its own. Absent in files of older versions.
   */
  concurrency: InFlightCapStateSchema.optional(),
});

/** What processes on one machine share about an account. */
export type SharedLimiterState = z.infer<typeof SharedLimiterStateSchema>;

/** A fresh shared state: nothing spent, nothing in flight. */
export function emptySharedState(): SharedLimiterState {
  return { version: 1, classes: {}, pausedUntil: null, inFlight: {} };
}

/** Exclusive read-modify-write access to an account's shared state. */
export interface SharedStore {
  /**
   * Runs `fn` on the shared state while no other process can touch it, then saves what `fn` left
   * in it. Synchronous: the limiter decides admissions in one step, so no other process can admit
   * between its look at the windows and its charge.
   */
  update<T>(fn: (state: SharedLimiterState) => T): T;
}

/** Tunables of `FileSharedStore`. */
export interface FileSharedStoreOptions {
  /** A lock file older than this is left over from a crashed process and removed, ms. */
  readonly staleLockMs: number;
  /** State files of any account untouched for this long are removed when a store opens, ms. */
  readonly staleStateMs: number;
}

// Decision (benchmark-backed): a lock is held for well under a millisecond (read, decide, write of
// a ~1 KB file), so one older than 2 s belongs to a process that died holding it. A state file not
// written for 10 minutes holds only windows long ended (the steady window is 60 s) and requests
// in flight of calls past their 2-minute retry budget: nothing a process could still use.
/** Defaults of `FileSharedStore`, with units. */
export const FILE_STORE_DEFAULTS: FileSharedStoreOptions = Object.freeze({ staleLockMs: 2_000, staleStateMs: 600_000 });

/** A state file, its lock or a temporary write of one (`<32 hex>.json`, `.json.lock`, `.json.<pid>.tmp`). */
const STATE_FILE = /^[0-9a-f]{32}\.json(\.lock|\.\d+\.tmp)?$/;

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

const stampOf = (stats: { ino: number; size: number; mtimeMs: number }): FileStamp => ({ ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs });
const sameStamp = (a: FileStamp, b: FileStamp) => a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * The shared state as a small JSON file guarded by an exclusive lock file (`<file>.lock`, created
 * with O_EXCL, removed after). Writes go to a temporary file renamed over the state, so a crash
 * never leaves half a state; an unreadable or foreign file reads as a fresh state (the server's
 * `X-RateLimit-*` headers then bring the windows back in step).
 */
export class FileSharedStore implements SharedStore {
  private readonly options: FileSharedStoreOptions;
  private readonly lockPath: string;
  private readonly tempPath: string;
  /** This process's last write: the file's stamp after it and the state written. */
  private written: { stamp: FileStamp; state: SharedLimiterState } | undefined;

  constructor(
    readonly path: string,
    options: Partial<FileSharedStoreOptions> = {},
  ) {
    this.options = { ...FILE_STORE_DEFAULTS, ...options };
    this.lockPath = `${path}.lock`;
    this.tempPath = `${path}.${process.pid}.tmp`;
    const directory = dirname(path);
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    if (!swept.has(directory)) {
      swept.add(directory);
      sweepStaleStates(directory, this.options.staleStateMs);
    }
  }

  update<T>(fn: (state: SharedLimiterState) => T): T {
    this.lock();
    try {
      const state = this.readIfChanged();
      this.written = undefined; // until this write lands, the copy in memory may be ahead of the file
      const result = fn(state);
      const fd = openSync(this.tempPath, "w", 0o600);
      let stamp: FileStamp;
      try {
        writeSync(fd, JSON.stringify(state));
        stamp = stampOf(fstatSync(fd));
      } finally {
        closeSync(fd);
      }
      renameSync(this.tempPath, this.path);
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

  /**
   * The state as this process last wrote it when the file is still that write (every write renames
   * a new file into place, so another process's write brings a new inode number; inode, size and
   * modification time together also catch a file rewritten in place); otherwise read and validated. Skipping the read, parse and validation halves the time a response holds the lock
   * when one process does most of the work (measured ~0.2 ms per look under load).
   */
  private readIfChanged(): SharedLimiterState {
    if (this.written) {
      try {
        if (sameStamp(stampOf(statSync(this.path)), this.written.stamp)) return this.written.state;
      } catch {
        // gone: read it as missing below
      }
    }
    return this.read();
  }

  private read(): SharedLimiterState {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return emptySharedState();
    }
    try {
      const parsed = SharedLimiterStateSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : emptySharedState();
    } catch {
      return emptySharedState();
    }
  }

  /** Takes the lock, waiting (synchronously, in 0.1 ms steps) while another process holds it. */
  private lock(): void {
    for (;;) {
      try {
        closeSync(openSync(this.lockPath, "wx", 0o600));
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      try {
        if (Date.now() - statSync(this.lockPath).mtimeMs > this.options.staleLockMs) rmSync(this.lockPath, { force: true });
      } catch {
        // Released between our open and stat: try again at once.
        continue;
      }
      Atomics.wait(SPIN, 0, 0, 0.1);
    }
  }
}

/** Whether process `pid` still runs (a dead process's requests in flight are no longer in flight). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
