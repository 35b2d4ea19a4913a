/**
 * Where an account's limiter state is kept: one state for every process spending on the account, as
 * the limits are counted per account (spec, Limits 1). A store only stores: `update(name, decide)`
 * hands `decide` the state saved under `name` (undefined when
 * there is none, or none that parses) and saves what it returns, atomically. This process's memory
 * and the machine's files are here; Redis, for several machines, is `redisLimiterStore.ts`.
 *
 * States are named by a hash of the account key (`sharedStateName`), never the token, and the name
 * carries the state's format version (`LIMITER_STATE_VERSION`): a changed shape is a new name.
 */
import { createHash, randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIMITER_STATE_VERSION, type LimiterState, LimiterStateSchema } from "./limiterState";
import { type Clock, createNewFile, currentUid, ensurePrivateDirectory, readFileNoLink } from "../infrastructure";
import { AdPlatformError } from "../errors";

/** What every store offers. */
export interface LimiterStore {
  update(name: string, decide: (state: LimiterState | undefined) => LimiterState): void | Promise<void>;
  /**
   * The clock of the place, when it has one of its own (Redis): the times in its states are on it,
   * so every machine sharing them dates windows alike. None: the machine's (`epochClock`).
   */
  readonly clock?: Clock;
}

/**
 * The name of an account's state in any store: 32 hex digits of a hash of the account key, so
 * neither the token nor the key itself is ever stored or shown.
 */
export function sharedStateName(key: string): string {
  return createHash("sha256").update("limiter-state\u0000").update(key).digest("hex").slice(0, 32);
}

/** The file of the state named `name`, in the format this release writes. */
const stateFileName = (name: string) => `${name}.v${LIMITER_STATE_VERSION}.json`;

/** The file of the state of the account whose key (`accountKey`) is `key`, in `directory` (see `FileLimiterStore`). */
export function sharedStatePath(key: string, directory: string = sharedStateDirectory()): string {
  return join(directory, stateFileName(sharedStateName(key)));
}

/** The state in `raw`; undefined when there is none or it is not one (a foreign or older write). */
export function parseState(raw: string | null | undefined): LimiterState | undefined {
  if (!raw) return undefined;
  try {
    const parsed = LimiterStateSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** This process's memory: the limiters of one process (and tests). */
export class MemoryLimiterStore implements LimiterStore {
  private readonly states = new Map<string, LimiterState>();

  update(name: string, decide: (state: LimiterState | undefined) => LimiterState): void {
    this.states.set(name, decide(this.states.get(name)));
  }
}

// Decision: on Linux the files live in /dev/shm, the machine's memory-backed temp directory: every
// decision pays a lock-read-write cycle, which there costs a fraction of what it costs on disk.
// One directory per user (`pulumi-adplatform-limits-<uid>`): both places are writable by every
// local user and empty after a reboot, so one shared name would be anyone's to make first.
/** `ADPLATFORM_LIMITS_DIR` when set, else this user's directory in /dev/shm when writable, else in the OS temp directory. */
export function sharedStateDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ADPLATFORM_LIMITS_DIR) return env.ADPLATFORM_LIMITS_DIR;
  const uid = currentUid();
  const name = uid === undefined ? "pulumi-adplatform-limits" : `pulumi-adplatform-limits-${uid}`;
  try {
    accessSync("/dev/shm", constants.W_OK);
    if (statSync("/dev/shm").isDirectory()) return join("/dev/shm", name);
  } catch {
    // no /dev/shm here
  }
  return join(tmpdir(), name);
}

// Decision: a lock is held to read, decide and write a small file, so one older than 2 s belongs
// to a process that died holding it. A state nobody wrote for 10 minutes holds windows long over
// and tickets long expired.
/** Tunables of `FileLimiterStore`, ms. */
export const FILE_STORE_DEFAULTS = Object.freeze({ staleLockMs: 2_000, staleStateMs: 600_000 });

/** A state file of any version, its lock, or a write on its way (`<32 hex>[.v<n>].json[.lock|.<pid>[.<hex>].tmp]`). */
const STATE_FILE = /^[0-9a-f]{32}(\.v\d+)?\.json(\.lock|\.\d+(\.[0-9a-f]+)?\.tmp)?$/;
const SPIN = new Int32Array(new SharedArrayBuffer(4));
/** Directories this process has swept. */
const swept = new Set<string>();

/**
 * Removes the state files (their locks and writes included) in `directory` nobody wrote for
 * `olderThanMs`: every account and every test run leaves one. Only names of this store; errors ignored.
 */
export function sweepStaleStates(directory: string, olderThanMs: number, nowMs: number = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return removed;
  }
  for (const name of names.filter((n) => STATE_FILE.test(n))) {
    try {
      if (nowMs - statSync(join(directory, name)).mtimeMs < olderThanMs) continue;
      unlinkSync(join(directory, name));
      removed.push(name);
    } catch {
      // gone, or not ours to remove
    }
  }
  return removed;
}

/**
 * The machine's store: one file per account in a directory private to this user, read, decided
 * and written (a new file renamed into place) under a short synchronous O_EXCL lock. No file is
 * opened through a link. Throws at every update when the directory cannot be used.
 */
export class FileLimiterStore implements LimiterStore {
  private readonly unusable: Error | undefined;

  constructor(
    readonly directory: string = sharedStateDirectory(),
    private readonly options = FILE_STORE_DEFAULTS,
  ) {
    try {
      ensurePrivateDirectory(directory);
    } catch (error) {
      this.unusable = error instanceof Error ? error : new AdPlatformError("ADP_ERR_UNSAFE_DIRECTORY", String(error));
      return;
    }
    if (!swept.has(directory)) {
      swept.add(directory);
      sweepStaleStates(directory, options.staleStateMs);
    }
  }

  /** The file of the state named `name`. */
  pathOf(name: string): string {
    return join(this.directory, stateFileName(name));
  }

  update(name: string, decide: (state: LimiterState | undefined) => LimiterState): void {
    if (this.unusable !== undefined) throw this.unusable;
    const path = this.pathOf(name);
    const lock = `${path}.lock`;
    this.lock(lock);
    try {
      let raw: string | undefined;
      try {
        raw = readFileNoLink(path);
      } catch {
        raw = undefined;
      }
      const state = decide(parseState(raw));
      // A new name each write: nobody can have planted anything at it beforehand.
      const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      const fd = createNewFile(temporary);
      try {
        writeSync(fd, JSON.stringify(state));
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // removed as stale by another process
      }
    }
  }

  /** Takes the lock, waiting in 0.1 ms steps while another process holds it; removes a stale one. */
  private lock(lock: string): void {
    for (;;) {
      try {
        closeSync(createNewFile(lock));
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      try {
        // Stale also when dated ahead (planted, or a clock stepped back): it would never age.
        if (Math.abs(Date.now() - statSync(lock).mtimeMs) > this.options.staleLockMs) rmSync(lock, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        const reason = (error as NodeJS.ErrnoException).code ?? String(error);
        throw new AdPlatformError(
          "ADP_ERR_UNSAFE_DIRECTORY",
          `the rate-limit lock ${lock} is stale and cannot be removed (${reason}): remove it, or set ADPLATFORM_LIMITS_DIR to another directory`,
          { cause: error },
        );
      }
      Atomics.wait(SPIN, 0, 0, 0.1);
    }
  }
}
