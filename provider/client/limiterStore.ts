/**
 * Where the limiters of one account share its rate-limit state (spec, Authentication 3: limits
 * apply per account; the Pulumi program process and the provider plugin process spend on the same
 * account at once). The state is one small JSON document per account: both windows of every rate
 * class, the cost admitted, a `Retry-After` pause, the in-flight cap and what it learned, and the
 * requests in flight of every limiter. Every admission and every answer of every limiter reads,
 * changes and writes it in one transaction, so the limiters sharing a store behave as one: one
 * budget per window, one in-flight cap, no collisions at window starts.
 *
 * Implementation: `FileLimiterStore` (a lock-guarded file, shared by the processes of one machine).
 */
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
   * Requests in flight per limiter, keyed `<pid>:<n>` (process id, then the limiter's number in
   * that process), so the limiters keep one in-flight cap together.
   */
  inFlight: z.record(z.string(), z.number()),
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

/** Exclusive read-modify-write access to one account's `LimiterState`. */
export interface LimiterStore {
  /**
   * Runs `fn` on the account's state while no other limiter can read it for a transaction or write
   * it, then saves what `fn` left in it, and returns `fn`'s result. `fn` runs exactly once: the
   * limiter decides admissions in it (and hands out permits), so a store must give exclusive access
   * for the whole read-decide-write. A store may drop, before `fn`, the in-flight entries of
   * limiters it knows are gone (a process that died).
   */
  transact<T>(fn: (state: LimiterState) => T): T;

  /** The account's state as saved, without a transaction; the caller must not change it. */
  load(): LimiterState;
}
