/**
 * Where an account's limiter state is kept, one for every process spending on the account (spec, Limits 1). A store
 * only stores: `update(name, decide)` saves what `decide` makes of the state (undefined: none that parses), atomically.
 * Memory and the machine's files are here; Redis is `redisLimiterStore.ts`. A state's name is a hash of the account key,
 * never the token, with its format version (`LIMITER_STATE_VERSION`): a changed shape is a new name.
 */
import { createHash, randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, readdirSync, renameSync, rmSync, statSync, unlinkSync, watch, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { LIMITER_STATE_VERSION, type LimiterState, LimiterStateSchema, releasedBetween } from "./limiterState";
import { type Clock, createNewFile, currentUid, ensurePrivateDirectory, readFileNoLink } from "../infrastructure";
import { AdPlatformError } from "../errors";

export interface LimiterStore {
  /** Saves what `decide` makes of the state `name`; `by`, the deciding limiter (`ownerOf` its tickets), is told to watchers. */
  update(name: string, decide: (state: LimiterState | undefined) => LimiterState, by?: string): void | Promise<void>;
  /**
   * `heard` runs after another limiter than `by` committed a release in state `name`, so a waiting limiter decides again
   * rather than polling; returns what ends the watch. None, or a failed watch: it wakes at the time the model knows.
   */
  watch?(name: string, by: string, heard: () => void): () => void;
  /** The place's own clock (Redis), the times of its states; none: the machine's (`epochClock`). */
  readonly clock?: Clock;
}

/** An account's state name in any store: 32 hex digits of a hash of its key, so neither token nor key is stored or shown. */
export function sharedStateName(key: string): string {
  return createHash("sha256").update("limiter-state\u0000").update(key).digest("hex").slice(0, 32);
}

/** The file of the state named `name`, in the format this release writes. */
const stateFileName = (name: string) => `${name}.v${LIMITER_STATE_VERSION}.json`;

/** The file of the state of the account whose key (`accountKey`) is `key`, in `directory` (see `FileLimiterStore`). */
export function sharedStatePath(key: string, directory: string = sharedStateDirectory()): string {
  return join(directory, stateFileName(sharedStateName(key)));
}

/** The state in `raw`; undefined when none or not one (a foreign or older write). */
export function parseState(raw: string | null | undefined): LimiterState | undefined {
  if (!raw) return undefined;
  try {
    const parsed = LimiterStateSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Who listens for releases, per channel (a state's name, or a Redis channel). */
export class ReleaseListeners {
  private readonly byChannel = new Map<string, Set<{ readonly by: string; readonly heard: () => void }>>();

  /** Adds a listener; `first` when it is the channel's first. */
  add(channel: string, by: string, heard: () => void): { first: boolean; remove: () => { last: boolean } } {
    let set = this.byChannel.get(channel);
    const first = set === undefined;
    if (set === undefined) this.byChannel.set(channel, (set = new Set()));
    const listener = { by, heard };
    set.add(listener);
    return {
      first,
      remove: () => {
        set.delete(listener);
        const last = set.size === 0 && this.byChannel.get(channel) === set;
        if (last) this.byChannel.delete(channel);
        return { last };
      },
    };
  }

  /** Tells the channel's listeners but `by`'s (its own release wakes it already). */
  tell(channel: string, by: string): void {
    for (const listener of this.byChannel.get(channel) ?? []) {
      if (listener.by === by) continue;
      try {
        listener.heard();
      } catch {
        // a listener's failure is its own
      }
    }
  }

  /** Tells every listener: a subscription lost may have missed any release. */
  tellAll(): void {
    for (const channel of [...this.byChannel.keys()]) this.tell(channel, "");
  }

  get size(): number {
    return this.byChannel.size;
  }
}

function readOrNone(path: string): string | undefined {
  try {
    return readFileNoLink(path);
  } catch {
    return undefined;
  }
}

/** Writes `text` to `path` through a new file renamed into place: nothing planted at its name is written through. */
function replaceFile(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = createNewFile(temporary);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** This process's memory: the limiters of one process (and tests). Releases are told directly. */
export class MemoryLimiterStore implements LimiterStore {
  private readonly states = new Map<string, LimiterState>();
  private readonly listeners = new ReleaseListeners();

  update(name: string, decide: (state: LimiterState | undefined) => LimiterState, by = ""): void {
    const before = this.states.get(name);
    const after = decide(before);
    this.states.set(name, after);
    if (releasedBetween(before, after)) queueMicrotask(() => this.listeners.tell(name, by));
  }

  watch(name: string, by: string, heard: () => void): () => void {
    const { remove } = this.listeners.add(name, by, heard);
    return () => void remove();
  }
}

// Decision: in /dev/shm on Linux, where a decision's lock-read-write cycle costs a fraction of disk's. One directory per
// user: both places are every local user's to write and empty after a reboot, so one shared name is anyone's to make.
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

// Decision: see docs/rate-limiter.md, "stale file lock, stale state" (a lock 2 s old is a dead process's).
/** Tunables of `FileLimiterStore`, ms. */
export const FILE_STORE_DEFAULTS = Object.freeze({ staleLockMs: 2_000, staleStateMs: 600_000 });

/** A state file of any version, its lock, its release marker, or a write on its way (`<32 hex>[.v<n>].json[.lock|.<pid>[.<hex>].tmp]`). */
const STATE_FILE = /^[0-9a-f]{32}(\.v\d+)?\.json(\.lock|\.released|\.\d+(\.[0-9a-f]+)?\.tmp)?$/;
const SPIN = new Int32Array(new SharedArrayBuffer(4));
const swept = new Set<string>();

/** Removes this store's files in `directory` unwritten for `olderThanMs` (every account and test run leaves one). */
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
 * The machine's store: a file per account in a directory private to this user, read, decided and replaced under a
 * short synchronous O_EXCL lock, never through a link. Throws at every update when the directory cannot be used.
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

  pathOf(name: string): string {
    return join(this.directory, stateFileName(name));
  }

  update(name: string, decide: (state: LimiterState | undefined) => LimiterState, by = ""): void {
    if (this.unusable !== undefined) throw this.unusable;
    const path = this.pathOf(name);
    const lock = `${path}.lock`;
    this.lock(lock);
    try {
      const before = parseState(readOrNone(path));
      const state = decide(before);
      replaceFile(path, JSON.stringify(state));
      // Watchers of the directory hear a release by a marker naming who released.
      if (releasedBetween(before, state)) replaceFile(`${path}.released`, by);
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // removed as stale by another process
      }
    }
  }

  /** Watches the directory for the state's release marker (`<state>.released`); one that cannot be watched hears nothing. */
  watch(name: string, by: string, heard: () => void): () => void {
    const marker = `${basename(this.pathOf(name))}.released`;
    try {
      const watcher = watch(this.directory, { persistent: false }, (_event, file) => {
        if (file === marker && readOrNone(join(this.directory, marker)) !== by) heard();
      });
      watcher.on("error", () => watcher.close());
      return () => watcher.close();
    } catch {
      return () => undefined;
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
