/**
 * The read grace: a read shortly after the provider created or adopted an object does not lose it.
 *
 * Whether the platform reads its own writes at once is not shown, and APIs of this kind answer a
 * new record's GET with a 404 for a moment after its create. A kind's read that takes such an
 * answer for "gone" makes the engine drop the object from the state, and the next `up` creates it
 * a second time (the API has no delete). So:
 *
 * - the create of a kind whose read asks the platform (a campaign group) records when the provider
 *   created or adopted the object, in the state, under the hidden output `CREATED_AT_OUTPUT`
 *   (`withCreationTime`, called where it POSTs or adopts). The kinds the API cannot read keep their
 *   state as written and can lose nothing on a read, so they record nothing;
 * - a read that finds nothing (`readWithGrace`, called by a kind's read around its one GET) within
 *   the grace period after that time (the `readGraceSeconds` setting) reads again, through the same
 *   client and so inside the account's rate limiter, after 1, 2, 4, 8 ... s (at most 30 s apart),
 *   for at most `MAX_RETRYING_MS`; if the object still does not show and the grace period has not
 *   ended, the read answers `notShownYet` and the kind keeps its state, with a warning;
 * - after the grace period, or for a state without the time, a missing object is gone, as before.
 *
 * Decision (not shown in spec): a state written before the time was recorded has none; such an
 * object is treated as outside the grace period (a missing object is gone, as it was when that state
 * was written), since no later read could ever end a grace period of unknown start. The time is an
 * output only: diffs compare declared inputs, so adding it to a state changes no diff.
 */
import { ApiConfigError } from "../../client";
import type { Clock } from "../../infrastructure";
import { sleep } from "../../infrastructure";
import type { Settings } from "../../configuration";
import type { LifecycleContext } from "./context";

/**
 * The hidden output holding when the provider created or adopted the object (ISO 8601, UTC). Its
 * `__` prefix keeps it out of the engine's displayed diffs. Part of the state format: do not rename.
 */
export const CREATED_AT_OUTPUT = "__adplatformCreatedAt";

/** Decision (not shown in spec): 5 minutes, past the few seconds such platforms take, short enough that a deleted object leaves soon. */
export const DEFAULT_READ_GRACE_SECONDS = 300; // 5 min

/** Decision: one read waits at most this long for a missing object to show, so a refresh is never held for the whole grace period. */
export const MAX_RETRYING_MS = 30_000; // 30 s
const FIRST_RETRY_MS = 1_000; // 1 s
const LONGEST_RETRY_MS = 30_000; // 30 s

const SETTING = "adplatform:readGraceSeconds";

/** Why `value` is not a usable `readGraceSeconds`, or undefined when it is (absent included). */
export function readGraceRefusal(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && /^\s*\d{1,9}\s*$/.test(value)) return undefined;
  return `${SETTING} must be a whole number of seconds (0 turns the read grace off)`;
}

/** The grace period of `settings`, ms. Throws naming the setting when it is not a whole number of seconds. */
export function readGraceMs(settings: Settings): number {
  const value = settings.readGraceSeconds;
  const refusal = readGraceRefusal(value);
  if (refusal !== undefined) throw new ApiConfigError("readGraceSeconds", refusal);
  return (value === undefined ? DEFAULT_READ_GRACE_SECONDS : Number(value)) * 1000;
}

/** When the object of `state` was created or adopted (epoch ms), or undefined when the state does not say. */
export function createdAtOf(state: unknown): number | undefined {
  const value = (state as Record<string, unknown> | undefined)?.[CREATED_AT_OUTPUT];
  const at = typeof value === "string" ? Date.parse(value) : NaN;
  return Number.isFinite(at) ? at : undefined;
}

/**
 * `outputs` of a create with its time recorded (the clock of the call's create session, on the
 * epoch). Called where the object is created or adopted, so a create journal that keeps the outputs
 * hands a later take-over the time of the create itself.
 */
export function withCreationTime<Outputs>(ctx: LifecycleContext, outputs: Outputs): Outputs {
  return { ...outputs, [CREATED_AT_OUTPUT]: new Date(ctx.createSession.clock.now()).toISOString() };
}

/** What a read within the grace gives: the object, or why there is none. */
export type GraceRead<T> =
  | { readonly found: T }
  /** Missing, and the grace period is over (or the state has no time): the object is gone. */
  | { readonly gone: true }
  /** Missing, still within the grace period: keep the state. `graceEndsAt` is epoch ms. */
  | { readonly notShownYet: true; readonly graceEndsAt: number; readonly attempts: number };

/**
 * Reads with `readOnce` (undefined: the platform shows no such object) and, while the object is
 * missing within the grace period after its creation time in `state`, again with backoff (see the
 * module comment). Errors of `readOnce` are thrown as they are.
 */
export async function readWithGrace<T>(
  ctx: LifecycleContext,
  state: unknown,
  readOnce: () => Promise<T | undefined>,
): Promise<GraceRead<T>> {
  const clock: Clock = ctx.createSession.clock;
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
    // The next read no later than the end of the grace period, when a missing object means gone.
    const wait = Math.min(pause, graceEndsAt - now);
    if (now + wait > stopRetryingAt) return { notShownYet: true, graceEndsAt, attempts };
    await sleep(clock, wait);
    pause = Math.min(pause * 2, LONGEST_RETRY_MS);
  }
}

/** The warning of a read that answers `notShownYet`: `label` names the resource, `noun` its kind's object. */
export function notShownYetWarning(label: string, noun: string, read: { graceEndsAt: number; attempts: number }): string {
  return (
    `${label}: the platform does not show this ${noun} yet (${read.attempts} read(s) found nothing) though the ` +
    `provider created it within the read grace period (${SETTING}), so it stays in the stack's state. A refresh ` +
    `after ${new Date(read.graceEndsAt).toISOString()} that still finds nothing removes it.`
  );
}
