/**
 * The rate limiter's state, per account: what every limiter of the account shares through a store
 * (`limiterStores.ts`, `redisLimiterStore.ts`) and the model (`limiterModel.ts`) decides on. Times
 * are on the limiters' shared (epoch) clock, ms.
 */
import { z } from "zod";

/** The format version of the state; a changed shape bumps it (stores name the state by it). */
export const LIMITER_STATE_VERSION = 3;

const WindowSchema = z.object({
  /** When the window was opened: its identity, which a ticket remembers. */
  opened: z.number(),
  /** The server's window ends no earlier than this... */
  endsAfter: z.number(),
  /** ...and no later than this. */
  endsBy: z.number(),
  /** Whether an answer bounded `endsBy`; before one, it is our guess. */
  heard: z.boolean(),
  /** Cost counted in the window: ours, or the server's count of the account's when it said more. */
  spent: z.number(),
  /** The part of `spent` the limiters sharing this state admitted: what the share caps. */
  own: z.number(),
  /**
   * What each limiter (`ownerOf` its ticket ids) admitted in the window, part of `own`: two states
   * of one window decided apart meet by each limiter's larger count, so what each spent apart is
   * counted once (`carriedState`). Optional: a state a release before wrote has none, and such a
   * release drops it when it writes.
   */
  by: z.record(z.string(), z.number()).optional(),
  /** Cost of answered requests that may have been counted in the window after this one. */
  carry: z.number(),
  /** When a window those requests may have opened is surely over: the latest one's answer + length. */
  carryUntil: z.number(),
  /** What the server said the window allows (`X-RateLimit-Limit`), within half and all of the class's. */
  limit: z.number(),
});
export type WindowState = z.infer<typeof WindowSchema>;

const TicketSchema = z.object({
  cls: z.string(),
  cost: z.number(),
  /** Admission time. */
  at: z.number(),
  /** When it stops counting against the cap unless released first. */
  exp: z.number(),
  /** The burst and steady windows (their `opened`) it was admitted in. */
  burst: z.number(),
  steady: z.number(),
  /** Live tickets right after its admission, itself included (what a `Retry-After: -1` tells). */
  live: z.number(),
});
export type Ticket = z.infer<typeof TicketSchema>;

/** What the limiters of one account share. Times are on their shared (epoch) clock, ms. */
export const LimiterStateSchema = z.object({
  classes: z.record(z.string(), z.object({ burst: WindowSchema, steady: WindowSchema })),
  tickets: z.record(z.string(), TicketSchema),
  cap: z.object({ value: z.number(), ceiling: z.number().nullable(), loweredAt: z.number().nullable(), good: z.number() }),
  /**
   * When each limiter holding tickets last decided (its `ownerOf` id): one silent for the liveness
   * period is dead, its tickets no longer counted against the cap. Optional, so a state written by
   * a release that kept no owners still reads (its tickets live to their expiry), and the format's
   * version stays.
   */
  owners: z.record(z.string(), z.number()).optional(),
});
export type LimiterState = z.infer<typeof LimiterStateSchema>;

/** A fresh state: nothing spent, nothing in flight. */
export function freshState(config: { readonly concurrency: { readonly initial: number } }): LimiterState {
  return {
    classes: {},
    tickets: {},
    cap: { value: config.concurrency.initial, ceiling: null, loweredAt: null, good: 0 },
  };
}

/** The total of a window's per-limiter counts. */
const sumOf = (by: Readonly<Record<string, number>> | undefined) => Object.values(by ?? {}).reduce((sum, cost) => sum + cost, 0);

/**
 * Two states of what may be one server window, decided apart: each limiter's admissions are its
 * larger count in either, counted once; what the two knew beyond them (the server's count of
 * others, requests carried in from the window before) is the larger. The rest is the fuller's.
 */
function sameWindow(a: WindowState, b: WindowState): WindowState {
  const by: Record<string, number> = { ...a.by };
  for (const [owner, cost] of Object.entries(b.by ?? {})) by[owner] = Math.max(by[owner] ?? 0, cost);
  const admitted = sumOf(by);
  const beyond = (w: WindowState, part: number) => Math.max(0, part - sumOf(w.by));
  return {
    ...(a.spent >= b.spent ? a : b),
    by,
    own: Math.max(beyond(a, a.own), beyond(b, b.own)) + admitted,
    spent: Math.max(beyond(a, a.spent), beyond(b, b.spent)) + admitted,
  };
}

/** Whether a commit of `after` over `before` released tickets (a slot another limiter may be waiting for). */
export function releasedBetween(before: LimiterState | undefined, after: LimiterState): boolean {
  return before !== undefined && Object.keys(before.tickets).some((id) => !(id in after.tickets));
}

/**
 * `found` with what `apart` (the state this process last decided elsewhere) knows and it does not:
 * each window is the one that surely ends later, or, of two that may be one server window, their
 * meeting (`sameWindow`); the tickets of both count. The cap is `found`'s (the account's) when
 * there is one.
 */
export function carriedState(found: LimiterState | undefined, apart: LimiterState | undefined): LimiterState | undefined {
  if (apart === undefined) return found;
  if (found === undefined) return apart;
  const later = (a: WindowState, b: WindowState) => (a.endsAfter >= b.endsBy ? a : b.endsAfter >= a.endsBy ? b : sameWindow(a, b));
  const classes = { ...found.classes };
  for (const [cls, windows] of Object.entries(apart.classes)) {
    const there = classes[cls];
    classes[cls] =
      there === undefined ? windows : { burst: later(there.burst, windows.burst), steady: later(there.steady, windows.steady) };
  }
  const owners = { ...apart.owners };
  for (const [owner, seen] of Object.entries(found.owners ?? {})) owners[owner] = Math.max(seen, owners[owner] ?? seen);
  return {
    classes,
    tickets: { ...apart.tickets, ...found.tickets },
    cap: found.cap,
    ...(Object.keys(owners).length > 0 ? { owners } : {}),
  };
}
