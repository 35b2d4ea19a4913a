/**
 * The read grace. Whether the platform reads its own writes is not shown, and such APIs answer a new
 * record's GET with a 404 for a moment; taken for "gone", the next `up` creates the object again. So a
 * kind whose read asks the platform records its creation time (`withCreationTime`), and a read finding
 * nothing within `readGraceSeconds` of it reads again (1, 2, 4 ... s, rate-limited) for at most
 * `MAX_RETRYING_MS`, then answers `notShownYet` and keeps the state, with a warning. Decision (not shown
 * in spec): a state without the time is outside the grace. The time is an output, so it changes no diff.
 */
import { ApiConfigError } from "../../client";
import { sleep } from "../../infrastructure";
import type { Settings } from "../../configuration";
import type { LifecycleContext } from "./context";

/** ISO 8601, UTC; `__` keeps it out of displayed diffs. Part of the state format: do not rename. */
export const CREATED_AT_OUTPUT = "__adplatformCreatedAt";

/** Decision (not shown in spec): 5 minutes, past the few seconds such platforms take, short enough that a deleted object leaves soon. */
export const DEFAULT_READ_GRACE_SECONDS = 300; // 5 min

/** Decision: one read waits at most this long for a missing object to show, so a refresh is never held for the whole grace period. */
export const MAX_RETRYING_MS = 30_000; // 30 s
const FIRST_RETRY_MS = 1_000; // 1 s
const LONGEST_RETRY_MS = 30_000; // 30 s

const SETTING = "adplatform:readGraceSeconds";

/** Why `value` is not a usable `readGraceSeconds`, or undefined (absent included). */
export function readGraceRefusal(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && /^\s*\d{1,9}\s*$/.test(value)) return undefined;
  return `${SETTING} must be a whole number of seconds (0 turns the read grace off)`;
}

/** The grace period of `settings`, ms; throws naming the setting when it is unusable. */
export function readGraceMs(settings: Settings): number {
  const value = settings.readGraceSeconds;
  const refusal = readGraceRefusal(value);
  if (refusal !== undefined) throw new ApiConfigError("readGraceSeconds", refusal);
  return (value === undefined ? DEFAULT_READ_GRACE_SECONDS : Number(value)) * 1000;
}

export function createdAtOf(state: unknown): number | undefined {
  const value = (state as Record<string, unknown> | undefined)?.[CREATED_AT_OUTPUT];
  const at = typeof value === "string" ? Date.parse(value) : NaN;
  return Number.isFinite(at) ? at : undefined;
}

/** `outputs` with the creation time, so a journal keeping them hands a take-over the create's own time. */
export function withCreationTime<Outputs>(ctx: LifecycleContext, outputs: Outputs): Outputs {
  return { ...outputs, [CREATED_AT_OUTPUT]: new Date(ctx.createSession.clock.now()).toISOString() };
}

export type GraceRead<T> =
  | { readonly found: T }
  | { readonly gone: true }
  /** Missing within the grace period: keep the state. `graceEndsAt` is epoch ms. */
  | { readonly notShownYet: true; readonly graceEndsAt: number; readonly attempts: number };

/** Reads with `readOnce` (undefined: no such object), again with backoff while missing within the grace. */
export async function readWithGrace<T>(
  ctx: LifecycleContext,
  state: unknown,
  readOnce: () => Promise<T | undefined>,
): Promise<GraceRead<T>> {
  const clock = ctx.createSession.clock;
  const createdAt = createdAtOf(state);
  const graceEndsAt = createdAt === undefined ? undefined : createdAt + readGraceMs(ctx.settings);
  const stopRetryingAt = clock.now() + MAX_RETRYING_MS;
  let attempts = 0;
  let pause = FIRST_RETRY_MS;
  for (;;) {
    const found = await readOnce();
    attempts += 1;
    if (found !== undefined) return { found };
    const now = clock.now();
    if (graceEndsAt === undefined || now >= graceEndsAt) return { gone: true };
    // No later than the grace's end, when a missing object means gone.
    const wait = Math.min(pause, graceEndsAt - now);
    if (now + wait > stopRetryingAt) return { notShownYet: true, graceEndsAt, attempts };
    await sleep(clock, wait);
    pause = Math.min(pause * 2, LONGEST_RETRY_MS);
  }
}

export function notShownYetWarning(label: string, noun: string, read: { graceEndsAt: number; attempts: number }): string {
  return (
    `${label}: the platform does not show this ${noun} yet (${read.attempts} read(s) found nothing) though the ` +
    `provider created it within the read grace period (${SETTING}), so it stays in the stack's state. A refresh ` +
    `after ${new Date(read.graceEndsAt).toISOString()} that still finds nothing removes it.`
  );
}
