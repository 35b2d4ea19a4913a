/**
 * The adaptive cap on requests in flight (spec, Limits 6: the platform refuses a request with
 * `Retry-After: -1` when too many of the account's requests are in flight, and does not publish
 * how many it allows). AIMD with a memory:
 * - a `Retry-After: -1` on a request admitted with k in flight proves the server allows fewer than
 *   k: the cap drops to k - 1, by at most half and at least one, once per congestion event (answers
 *   to requests admitted before the last decrease describe the old cap);
 * - when k - 1 explains the refusal (our own count filled the limit), it is remembered as the
 *   ceiling;
 * - below the ceiling the cap grows by one after each cap's worth of good answers; past it only
 *   once `probeCeilingAfterMs` has passed since it was lowered, since every probe past a limit the
 *   server really has costs a refused request and its backoff.
 *
 * Pure: time is passed in. The cap, the ceiling and when the cap was last lowered can be shared
 * through a `LimiterStore` (`exportState`, `restoreState`), so what one process learned spares the
 * others their own refusals; the counts of good answers and admissions stay with each limiter.
 */
import { z } from "zod";
import { notAfter } from "./plausibleTimes";

/** Bounds of the adaptive in-flight cap. */
export interface ConcurrencyOptions {
  /** Cap at start. */
  readonly initial: number;
  /** The cap never drops below this. */
  readonly min: number;
  /** The cap never grows above this. */
  readonly max: number;
}

/**
 * The shared part of the cap: the cap, the ceiling a `Retry-After: -1` showed (null: none) and
 * when the cap was last lowered (null: never), on the limiter's clock.
 */
export const InFlightCapStateSchema = z.object({ cap: z.number(), ceiling: z.number().nullable(), decreasedAt: z.number().nullable() });

/** See `InFlightCapStateSchema`. */
export type InFlightCapState = z.infer<typeof InFlightCapStateSchema>;

/** What a refusal says about the refused request, as recorded at its admission. */
export interface CapAdmission {
  /** Its number from `admitted()`. */
  readonly sequence: number;
  /** Clock time of its admission, ms. */
  readonly admittedAt: number;
  /** Requests in flight (the machine's, this one included) right after its admission. */
  readonly inFlightAtAdmission: number;
}

export class InFlightCap {
  private cap: number;
  /** Highest cap the server's in-flight limit was seen to allow (Infinity: never refused). */
  private ceiling = Number.POSITIVE_INFINITY;
  /** Clock time the cap was last lowered. */
  private decreasedAt = Number.NEGATIVE_INFINITY;
  private goodSinceChange = 0;
  private admissions = 0;
  /** `admissions` when the cap was last lowered. */
  private admissionsAtDecrease = 0;

  /**
   * @param bounds the cap starts at `initial` and stays within `min` and `max`.
   * @param probeCeilingAfterMs time after a decrease before the cap grows past a learned ceiling.
   */
  constructor(
    private readonly bounds: ConcurrencyOptions,
    readonly probeCeilingAfterMs: number,
  ) {
    this.cap = this.clamp(bounds.initial);
  }

  /** Requests allowed in flight now. */
  get value(): number {
    return this.cap;
  }

  private clamp(cap: number): number {
    return Math.min(this.bounds.max, Math.max(this.bounds.min, cap));
  }

  /** Counts an admission; returns its sequence number (from 1), for `refused`. */
  admitted(): number {
    this.admissions += 1;
    return this.admissions;
  }

  /** The request admitted as `admission` was refused with `Retry-After: -1` at `now`. */
  refused(admission: CapAdmission, now: number): void {
    // One decrease per congestion event: responses to requests admitted before the last decrease
    // describe the old cap. The decrease may have been another process's (shared `decreasedAt`):
    // then only the time tells.
    if (admission.sequence <= this.admissionsAtDecrease || admission.admittedAt < this.decreasedAt) return;
    const { min } = this.bounds;
    // The server had its limit in flight when this request arrived: it allows fewer than we had.
    const allowed = Math.max(min, admission.inFlightAtAdmission - 1);
    // Down to what it allows, but by at most half at once (a refusal caused by another machine's
    // requests says little about the limit), and always by at least one.
    this.cap = Math.max(min, Math.floor(this.cap / 2), Math.min(allowed, this.cap - 1));
    // Our own count explains the refusal: that is the server's limit, remembered. A refusal with
    // fewer of ours in flight than the new cap came from someone else's requests: no ceiling. Nor
    // when it was alone in flight: no server allows fewer than one, so someone else's requests (or
    // a storm) filled the limit, and a ceiling of 1 would hold the cap there for a whole steady window.
    if (allowed >= this.cap && admission.inFlightAtAdmission > 1) this.ceiling = this.cap;
    this.admissionsAtDecrease = this.admissions;
    this.decreasedAt = now;
    this.goodSinceChange = 0;
  }

  /** A request was answered and not refused, at `now`: the cap grows slowly (see the file comment). */
  answered(now: number): void {
    this.goodSinceChange += 1;
    if (this.goodSinceChange < this.cap || this.cap >= this.bounds.max) return;
    if (this.cap >= this.ceiling && now - this.decreasedAt < this.probeCeilingAfterMs) return;
    this.cap += 1;
    this.goodSinceChange = 0;
  }

  /** The shared part, for a store. */
  exportState(): InFlightCapState {
    return {
      cap: this.cap,
      ceiling: Number.isFinite(this.ceiling) ? this.ceiling : null,
      decreasedAt: Number.isFinite(this.decreasedAt) ? this.decreasedAt : null,
    };
  }

  /**
   * Takes over the shared part (written by `exportState`, here or in another process) at `now`,
   * within our bounds: a decrease dated in the future (a broken or hostile store) would keep the
   * cap under its ceiling and ignore every refusal for as long, so it counts as made now.
   */
  restoreState(state: InFlightCapState, now: number): void {
    this.cap = this.clamp(state.cap);
    this.ceiling = state.ceiling ?? Number.POSITIVE_INFINITY;
    this.decreasedAt = state.decreasedAt === null ? Number.NEGATIVE_INFINITY : notAfter(state.decreasedAt, now, 0);
  }
}
