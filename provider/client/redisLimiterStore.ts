/**
 * The `LimiterStore` of several machines: an account's limiter state in a Redis server, shared by
 * every process on every machine pointing at it (several CI runners deploying stacks of one
 * account). Asynchronous; same semantics as the machine-local `FileLimiterStore`.
 *
 * - Keys: `adplatform:limits:<name>` (the state, JSON) and `<that>:lock`, where `<name>` is the
 *   hash the file store names its file by (`sharedStateName`): neither token nor account key.
 * - A transaction is two round trips, each one Lua script (atomic on the server): take the lock
 *   (`SET NX PX` with a random token) and read the state; then write the state and delete the lock,
 *   only if the lock is still ours. `fn` runs once, between them, with the lock held; while another
 *   process holds it, the first script is tried again every millisecond. A lock whose holder
 *   crashed expires after `lockMs`.
 * - The state expires `stateTtlMs` after its last write (nothing in it is of use that long after).
 * - In-flight entries carry leases (`LimiterState.leases`): each transaction renews this process's
 *   and drops those that lapsed, and a timer renews them while this process has requests in
 *   flight. So the entries of a process that died on any machine are dropped within `leaseMs`.
 * - It runs on this process's one connection to the URL (`./sharedRedis`), shared with the create
 *   journal.
 *
 * A failure (Redis down, unreachable, refusing authentication, gone mid-run) rejects the
 * transaction and gives the URL up for the process; `FallbackLimiterStore` turns that into
 * local-only limiting.
 *
 * The lock protocol, its two Lua scripts and the leases are one
 * store's parts, each of which only makes sense with the others.
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { SHARED_REDIS_TIMEOUTS, type SharedRedis, sharedRedis } from "./sharedRedis";
import { emptyLimiterState, isOwnLimiterId, type LimiterState, LimiterStateSchema, type LimiterStore } from "./limiterStore";
import { notAfter } from "./plausibleTimes";

/** Tunables of `RedisLimiterStore`, ms. */
export interface RedisLimiterStoreOptions {
  /** A lock held this long belongs to a process that died holding it, and expires. */
  readonly lockMs: number;
  /** The state expires this long after its last write. */
  readonly stateTtlMs: number;
  /**
   * An in-flight entry lapses this long after its process last renewed it. Limiters whose windows
   * are scaled (the bench's) pass it scaled alike, or a process's entries would outlast many
   * windows.
   */
  readonly leaseMs: number;
  /** Waiting for the lock may take this long before the store counts as broken. */
  readonly lockWaitMs: number;
}

// Decision: as the file store's: a lock is held for one round trip and a decision, so one older
// than 2 s is a crashed holder's, and a state not written for 10 minutes holds nothing of use. A
// lease of 10 s, renewed every 2.5 s while requests are in flight, frees a dead process's share of
// the in-flight cap within seconds.
/** Defaults of `RedisLimiterStore`, with units. */
export const REDIS_STORE_DEFAULTS: RedisLimiterStoreOptions = Object.freeze({
  lockMs: 2_000,
  stateTtlMs: 600_000,
  leaseMs: 10_000,
  lockWaitMs: 10_000,
});

/** Prefix of every key this store writes. */
export const REDIS_KEY_PREFIX = "adplatform:limits:";

/** The state key of the account whose state is named `name` (`sharedStateName`). */
export function redisStateKey(name: string): string {
  return `${REDIS_KEY_PREFIX}${name}`;
}

/** KEYS lock, state; ARGV token, lock ms. Returns {1, state or ""} when the lock was taken, else {0}. */
const LOCK_AND_READ = `
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  return {1, redis.call("GET", KEYS[2]) or ""}
end
return {0}`;

/**
 * KEYS lock, state; ARGV token, state ("" writes nothing), state ms. Writes and unlocks only while
 * the lock is still ours (1), else changes nothing (0): a holder that outlived its lock must not
 * overwrite the state of the one that took it over.
 */
const WRITE_AND_UNLOCK = `
if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] ~= "" then redis.call("SET", KEYS[2], ARGV[2], "PX", ARGV[3]) end
redis.call("DEL", KEYS[1])
return 1`;

interface ScriptedRedis extends Redis {
  adplatformLockAndRead(lock: string, state: string, token: string, lockMs: number): Promise<[number, string?]>;
  adplatformWriteAndUnlock(lock: string, state: string, token: string, value: string, stateMs: number): Promise<number>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An account's limiter state in Redis (see the file comment). */
export class RedisLimiterStore implements LimiterStore {
  readonly options: RedisLimiterStoreOptions;
  readonly stateKey: string;
  private readonly lockKey: string;
  private readonly connection: SharedRedis;
  /** Renews this process's leases while it has requests in flight. */
  private renewal: ReturnType<typeof setInterval> | undefined;
  /** Transactions begun and not yet ended (the renewal's included), for `flush`. */
  private readonly pending = new Set<Promise<void>>();

  /** `name`: the account's `sharedStateName`. */
  constructor(
    readonly url: string,
    name: string,
    options: Partial<RedisLimiterStoreOptions> = {},
  ) {
    this.options = { ...REDIS_STORE_DEFAULTS, ...options };
    this.stateKey = redisStateKey(name);
    this.lockKey = `${this.stateKey}:lock`;
    this.connection = sharedRedis(url, SHARED_REDIS_TIMEOUTS);
    this.connection.defineScript("adplatformLockAndRead", 2, LOCK_AND_READ);
    this.connection.defineScript("adplatformWriteAndUnlock", 2, WRITE_AND_UNLOCK);
  }

  /** The URL as shown: without its password. */
  get shownUrl(): string {
    return this.connection.shownUrl;
  }

  transact<T>(fn: (state: LimiterState) => T): Promise<T> {
    const done = this.transactOnce(fn);
    const ended = done.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(ended);
    void ended.then(() => this.pending.delete(ended));
    return done;
  }

  /**
   * Stops renewing this process's leases and resolves once every transaction begun so far, and any
   * begun while waiting, has ended: for a process that exits on purpose while others go on. An exit
   * that cuts off its last release leaves that request unanswered in the account's windows (the
   * others then hold a window open for an answer that never comes) and its in-flight entry until
   * the lease lapses; one that cuts off a transaction holding the lock makes the others wait out
   * `lockMs`.
   */
  async flush(): Promise<void> {
    this.keepRenewing(false);
    for (;;) {
      if (this.pending.size > 0) {
        await Promise.all([...this.pending]);
        continue;
      }
      // A transaction that waited for the last one starts in a callback of its end: let every such
      // callback run before concluding there is none.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.pending.size === 0) return;
    }
  }

  private async transactOnce<T>(fn: (state: LimiterState) => T): Promise<T> {
    const token = randomBytes(12).toString("hex");
    const client = this.connection.client as ScriptedRedis;
    const raw = await this.connection.run(async () => {
      const started = Date.now();
      for (;;) {
        const [taken, value] = await client.adplatformLockAndRead(this.lockKey, this.stateKey, token, this.options.lockMs);
        if (taken === 1) return value ?? "";
        if (Date.now() - started > this.options.lockWaitMs) throw new Error(`its lock stayed taken for ${this.options.lockWaitMs} ms`);
        await sleep(1);
      }
    });
    const state = parseState(raw);
    const now = Date.now();
    dropLapsed(state, now, this.options.leaseMs);
    let result: T;
    try {
      result = fn(state);
    } catch (error) {
      await this.connection
        .run(() => client.adplatformWriteAndUnlock(this.lockKey, this.stateKey, token, "", this.options.stateTtlMs))
        .catch(() => undefined);
      throw error;
    }
    const ownInFlight = renewOwn(state, now + this.options.leaseMs);
    await this.connection.run(() =>
      client.adplatformWriteAndUnlock(this.lockKey, this.stateKey, token, JSON.stringify(state), this.options.stateTtlMs),
    );
    this.keepRenewing(ownInFlight);
    return result;
  }

  async load(): Promise<LimiterState> {
    return parseState(await this.connection.run((client) => client.get(this.stateKey)));
  }

  /** Starts or stops the lease renewal timer; it never keeps the process alive. */
  private keepRenewing(ownInFlight: boolean): void {
    if (ownInFlight && this.renewal === undefined) {
      this.renewal = setInterval(() => {
        this.transact(() => undefined).catch(() => this.keepRenewing(false));
      }, this.options.leaseMs / 4);
      this.renewal.unref();
    } else if (!ownInFlight && this.renewal !== undefined) {
      clearInterval(this.renewal);
      this.renewal = undefined;
    }
  }
}

/** The state in `raw`; a fresh one when there is none or it is not a state (a foreign write). */
function parseState(raw: string | null): LimiterState {
  if (!raw) return emptyLimiterState();
  try {
    const parsed = LimiterStateSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : emptyLimiterState();
  } catch {
    return emptyLimiterState();
  }
}

/**
 * Drops the in-flight entries of other processes whose lease lapsed (or that never had one). A
 * lease is never longer than `leaseMs` from now: one further ahead (a broken or hostile writer)
 * is cut to that, and the cut one written back, so its entry lapses like any other.
 */
function dropLapsed(state: LimiterState, now: number, leaseMs: number): void {
  const leases = state.leases ?? {};
  for (const id of Object.keys(state.inFlight)) {
    if (isOwnLimiterId(id)) continue;
    const lease = leases[id];
    if (lease === undefined || lease < now) delete state.inFlight[id];
    else leases[id] = notAfter(lease, now, leaseMs);
  }
}

/**
 * Gives this process's in-flight entries a lease until `until`, and forgets the leases of entries
 * gone. Returns whether this process has requests in flight.
 */
function renewOwn(state: LimiterState, until: number): boolean {
  const leases: Record<string, number> = {};
  let own = false;
  for (const [id, count] of Object.entries(state.inFlight)) {
    if (isOwnLimiterId(id)) {
      leases[id] = until;
      own ||= count > 0;
    } else if (state.leases?.[id] !== undefined) {
      leases[id] = state.leases[id];
    }
  }
  state.leases = leases;
  return own;
}
