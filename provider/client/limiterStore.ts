/**
 * Where the limiters of one account share its rate-limit state (spec, Authentication 3: limits
 * apply per account; the Pulumi program process and the provider plugin process spend on the same
 * account at once). The state is one small JSON document per account: both windows of every rate
 * class, the cost admitted, a `Retry-After` pause, the in-flight cap and what it learned, and the
 * requests in flight of every limiter. Every admission and every answer of every limiter reads,
 * changes and writes it in one transaction, so the limiters sharing a store behave as one: one
 * budget per window, one in-flight cap, no collisions at window starts.
 *
 * Implementations: `FileLimiterStore` (a lock-guarded file, shared by the processes of one
 * machine; synchronous), `RedisLimiterStore` (a Redis server, shared by the processes of every
 * machine pointing at it; asynchronous) and `MemoryLimiterStore` (this process only; asynchronous).
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { z } from "zod";
import { InFlightCapStateSchema } from "./inFlightCap";
import { RateClassStateSchema } from "./rateClassWindows";

/** The shared state's shape (version 1). Times are on the limiters' shared (epoch) clock, ms. */
export const LimiterStateSchema = z.object({
  version: z.literal(1),
  /** Per rate class (`RateClassName`): both windows and the cost admitted so far. */
  classes: z.record(z.string(), RateClassStateSchema),
  /** End of a `Retry-After` pause of the whole account; null when none. */
  pausedUntil: z.number().nullable(),
  /**
   * Requests in flight per limiter, keyed by `limiterId` (`<pid>:<n>:<process tag>`), so the
   * limiters keep one in-flight cap together.
   */
  inFlight: z.record(z.string(), z.number()),
  /**
   * Of a limiter's `inFlight` entry, the requests already answered whose answers its windows have
   * not taken in yet (its transaction for them is still to come): pending for the windows, no
   * longer in flight for the cap. Absent in states written before it (the whole entry then counts
   * against the cap, which errs on the safe side).
   */
  settling: z.record(z.string(), z.number()).optional(),
  /**
   * Per `inFlight` entry, when it lapses unless its process renews it (epoch ms): how a store
   * shared across machines, which cannot ask whether a process elsewhere still runs, drops the
   * entries of one that died. Written by `RedisLimiterStore`; the file store checks process ids.
   */
  leases: z.record(z.string(), z.number()).optional(),
  /**
   * The in-flight cap and what it learned of the server's in-flight limit (spec, Limits 6), so a
   * limiter that starts or never got refused uses what another one learned instead of learning it
   * again with refusals of its own. Absent in states written before it was shared.
   */
  concurrency: InFlightCapStateSchema.optional(),
});

/** What the limiters of one account share. */
export type LimiterState = z.infer<typeof LimiterStateSchema>;

/** A fresh state: nothing spent, nothing in flight. */
export function emptyLimiterState(): LimiterState {
  return { version: 1, classes: {}, pausedUntil: null, inFlight: {} };
}

/**
 * Exclusive read-modify-write access to one account's `LimiterState`. A store may be synchronous
 * (return values) or asynchronous (return promises, as a networked store must); the limiter
 * handles both, and takes no extra turn of the event loop with a synchronous one.
 */
export interface LimiterStore {
  /**
   * Runs `fn` on the account's state while no other limiter can read it for a transaction or write
   * it, then saves what `fn` left in it, and returns (or resolves to) `fn`'s result. `fn` is
   * synchronous and runs exactly once: the limiter decides admissions in it and hands out
   * permits, which cannot be taken back, so a store holds exclusive access for the whole
   * read-decide-write rather than run `fn` again after a lost compare-and-set (the file store
   * takes a lock file; a networked store can take a lock key with an expiry, and write the state
   * and release the lock in one atomic step that checks the lock is still its own). A store may
   * drop, before `fn`, the in-flight entries of limiters it knows are gone (a process that died).
   *
   * A limiter never nests its transactions nor starts one while its previous one is pending
   * (`StoreTransactions`).
   */
  transact<T>(fn: (state: LimiterState) => T): T | Promise<T>;

  /** The account's state as saved, without a transaction; the caller must not change it. */
  load(): LimiterState | Promise<LimiterState>;
}

/**
 * What tells this process from every other one on every machine: host name, process id and a
 * random part (a process id alone repeats across machines, and on one machine over time).
 */
export const PROCESS_TAG = `${hostname()}/${process.pid}/${randomBytes(4).toString("hex")}`;

/**
 * The name of this process's `n`th limiter in a state's `inFlight` table. The process id comes
 * first, so a machine-local store can check whether the process still runs (`FileLimiterStore`).
 */
export function limiterId(n: number): string {
  return `${process.pid}:${n}:${PROCESS_TAG}`;
}

/** Whether `id` names a limiter of this process (see `limiterId`). */
export function isOwnLimiterId(id: string): boolean {
  return id.endsWith(`:${PROCESS_TAG}`) && id.startsWith(`${process.pid}:`);
}

/** Whether a store's answer is a promise (an asynchronous store) rather than the value itself. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}
