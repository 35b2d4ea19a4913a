/** The rate limiter's state per account, shared through a store and decided on by the model (docs/rate-limiter.md). */
import { z } from "zod";

/** The format version of the state; a changed shape bumps it (stores name the state by it). */
export const LIMITER_STATE_VERSION = 3;

const WindowSchema = z.object({
  /** When we opened it: its identity, which a ticket remembers. */
  opened: z.number(),
  /** The server's window ends within [endsAfter, endsBy]. */
  endsAfter: z.number(),
  endsBy: z.number(),
  /** Whether an answer bounded `endsBy`; before one, it is our guess. */
  heard: z.boolean(),
  /** Cost counted in the window: ours, or the server's count of the account's when it said more. */
  spent: z.number(),
  /** The part of `spent` the limiters sharing this state admitted: what the share caps. */
  own: z.number(),
  /** What each limiter (`ownerOf`) admitted in it, part of `own`, so states decided apart meet counting it once
   *  (`carriedState`). Optional: an older release's state has none, and its writes drop it. */
  by: z.record(z.string(), z.number()).optional(),
  /** Cost of answered requests that may have been counted in the window after this one. */
  carry: z.number(),
  /** When a window they may have opened is surely over: the latest one's answer + length. */
  carryUntil: z.number(),
  /** What the server said the window allows (`X-RateLimit-Limit`), within half and all of the class's. */
  limit: z.number(),
});
export type WindowState = z.infer<typeof WindowSchema>;

const TicketSchema = z.object({
  cls: z.string(),
  cost: z.number(),
  /** Admitted at; stops counting against the cap at `exp` unless released first. */
  at: z.number(),
  exp: z.number(),
  /** The windows (their `opened`) it was admitted in. */
  burst: z.number(),
  steady: z.number(),
  /** Live tickets right after its admission, itself included (what a `Retry-After: -1` tells). */
  live: z.number(),
});
export type Ticket = z.infer<typeof TicketSchema>;

/** What the limiters of one account share. Times are on the store's clock, ms. */
export const LimiterStateSchema = z.object({
  classes: z.record(z.string(), z.object({ burst: WindowSchema, steady: WindowSchema })),
  tickets: z.record(z.string(), TicketSchema),
  cap: z.object({ value: z.number(), ceiling: z.number().nullable(), loweredAt: z.number().nullable(), good: z.number() }),
  /** When each limiter holding tickets last decided (rule 5). Optional, so an older release's state still reads (its
   *  tickets live to their expiry) and the format's version stays. */
  owners: z.record(z.string(), z.number()).optional(),
});
export type LimiterState = z.infer<typeof LimiterStateSchema>;

/** A fresh state: nothing spent, nothing in flight. */
export function freshState(config: { readonly concurrency: { readonly initial: number } }): LimiterState {
  return { classes: {}, tickets: {}, cap: { value: config.concurrency.initial, ceiling: null, loweredAt: null, good: 0 } };
}

/** The limiter a ticket id belongs to: ids are `<limiter>#<n>`. */
export function ownerOf(id: string): string {
  return id.slice(0, id.lastIndexOf("#") + 1);
}

const sumOf = (by: Readonly<Record<string, number>> | undefined) => Object.values(by ?? {}).reduce((sum, cost) => sum + cost, 0);

/** Two states of what may be one server window, decided apart: each limiter's larger count, plus the larger of what
 *  either knew beyond those (others' spend, carried requests), never the sum; the rest is the fuller's. */
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

/** `found` with what `apart` (the last decision of limiter `by`, elsewhere) knows: each window the one that surely ends
 *  later, or their meeting (`sameWindow`); `found`'s tickets and `by`'s own (another limiter's could be released by no one
 *  here: it brings its own when it comes); `found`'s cap (the account's). */
export function carriedState(found: LimiterState | undefined, apart: LimiterState | undefined, by?: string): LimiterState | undefined {
  if (apart === undefined) return found;
  const own = by === undefined ? apart.tickets : Object.fromEntries(Object.entries(apart.tickets).filter(([id]) => ownerOf(id) === by));
  if (found === undefined) return { ...apart, tickets: own };
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
    tickets: { ...own, ...found.tickets },
    cap: found.cap,
    ...(Object.keys(owners).length > 0 ? { owners } : {}),
  };
}
