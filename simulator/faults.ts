/**
 * Fault injection: 500s (with and without `trace_id`), slow responses, dropped connections before
 * and after the request is applied, malformed JSON bodies, success bodies of the wrong shape, forced 429 storms (with `Retry-After: N`
 * and with `-1`), a gate that holds admitted requests open, and records created through the API
 * hidden from reads for a while after their create (a platform that does not read its own writes
 * at once).
 *
 * Reproducible two ways: scripted rules ("the next N requests of op X fail like this"), which are
 * consulted first, and random shares drawn from a seeded PRNG, one draw per API request, so the same
 * seed and the same request sequence give the same faults.
 */
import { z } from "zod";

/** What a fault does to one request. */
export const FAULT_KINDS = [
  /** 500 `{code, title, trace_id}` before the request is applied. */
  "error500",
  /** 500 `{code, title, message}` without `trace_id`, before the request is applied. */
  "error500NoTrace",
  /** The connection is destroyed before the request is applied: nothing changed on the server. */
  "dropBefore",
  /** The request is applied, then the connection is destroyed before any response byte. */
  "dropAfter",
  /** The request is applied and answered with its success status and a truncated JSON body. */
  "malformed",
  /**
   * The request is applied and answered with its success status and valid JSON of the wrong shape:
   * the record keeps its `id`, every other top-level field is `null` (a server that changed or
   * failed midway). A body without other fields (a strategy's create answer) is sent unchanged.
   * Scripted rules only: no random share.
   */
  "wrongShape",
  /** 429 with `Retry-After: retryAfter` (seconds), before the limiter; consumes no budget. */
  "rateLimit",
  /** 429 with `Retry-After: -1` (spec, Limits 6), before the limiter; consumes no budget. */
  "concurrency",
  /** The request waits `delayMs` after admission, then proceeds normally. */
  "delay",
] as const;
/** One fault kind. */
export type FaultKind = (typeof FAULT_KINDS)[number];

const Share = z.number().min(0).max(1);

/** A scripted fault: applies to the next `count` matching requests, then is spent. */
export const FaultRuleSchema = z.strictObject({
  kind: z.enum(FAULT_KINDS),
  /** Operation number or name it applies to; every operation when omitted. */
  op: z.union([z.number().int().positive(), z.string().min(1)]).optional(),
  /** Account it applies to; every account when omitted. */
  account: z.string().min(1).optional(),
  /** How many matching requests it affects. */
  count: z.number().int().positive().default(1),
  /** `rateLimit`: the `Retry-After` seconds sent. */
  retryAfter: z.number().int().nonnegative().default(1),
  /** `delay`: milliseconds added before the request proceeds. */
  delayMs: z.number().int().nonnegative().default(0),
});
/** A scripted fault after defaults. */
export type FaultRule = z.output<typeof FaultRuleSchema>;

/**
 * Every fault setting. Shares are probabilities per API request; they are bands of one random draw,
 * so they must add up to at most 1.
 */
export const FaultSettingsSchema = z
  .strictObject({
    /** Share of requests answered 500 before being applied. */
    errorRate: Share.default(0),
    /** Of those 500s, the share that carry `message` and no `trace_id` (spec, Errors). */
    errorNoTraceShare: Share.default(0.5),
    /** Share of connections dropped before the request is applied. */
    dropBeforeRate: Share.default(0),
    /** Share of connections dropped after the request is applied. */
    dropAfterRate: Share.default(0),
    /** Share of success responses sent with a truncated JSON body. */
    malformedRate: Share.default(0),
    /** Share of requests answered 429 regardless of the windows (a storm). */
    rateLimitRate: Share.default(0),
    /** `Retry-After` of those 429s: seconds, or -1 for the concurrency variant. */
    rateLimitRetryAfter: z.number().int().min(-1).default(1),
    /** Milliseconds every API request waits after admission (slow responses). */
    delayMs: z.number().int().nonnegative().default(0),
    /**
     * Milliseconds after its create during which a record created through the API is hidden from
     * reads: a single-record read answers 404 and a list leaves it out (it exists, and is counted
     * in `/_sim/state`). Applies to records created before the setting too.
     */
    hideCreatedForMs: z.number().int().nonnegative().default(0),
    /** While true, admitted requests wait (still in flight) until it is set false. */
    hold: z.boolean().default(false),
    /** With `hold`, only this account's requests wait (every account's when omitted). */
    holdAccount: z.string().min(1).optional(),
    /** Scripted faults, consulted before the random shares; the first matching rule applies. */
    rules: z.array(FaultRuleSchema).default([]),
  })
  .refine(
    (s) => s.errorRate + s.dropBeforeRate + s.dropAfterRate + s.malformedRate + s.rateLimitRate <= 1,
    "errorRate + dropBeforeRate + dropAfterRate + malformedRate + rateLimitRate must be at most 1",
  );
/** Fault settings after defaults. */
export type FaultSettings = z.output<typeof FaultSettingsSchema>;
/** Fault settings as given (every field optional). */
export type FaultSettingsInput = z.input<typeof FaultSettingsSchema>;

/** The fault chosen for one request (at most one). */
export interface ChosenFault {
  kind: FaultKind;
  /** `rateLimit` / `concurrency`: the `Retry-After` value to send. */
  retryAfter?: number;
  /** `delay`: milliseconds. */
  delayMs?: number;
}

/** mulberry32: a small seeded PRNG, good enough for fault shares and fully reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Holds admitted requests while `held` is true (the `hold` setting). */
class Gate {
  private waiters: (() => void)[] = [];
  held = false;

  wait(): Promise<void> {
    if (!this.held) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  set(held: boolean): void {
    this.held = held;
    if (!held) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const release of waiters) release();
    }
  }

  /** Requests waiting at the gate. */
  get waiting(): number {
    return this.waiters.length;
  }
}

/** The simulator's live fault settings, rule counters and PRNG. */
export class FaultInjector {
  private settings: FaultSettings;
  private random: () => number;
  private readonly gate = new Gate();

  constructor(
    private readonly initial: FaultSettingsInput,
    private readonly seed: number,
  ) {
    this.settings = FaultSettingsSchema.parse(initial);
    this.random = seededRandom(seed);
    this.gate.set(this.settings.hold);
  }

  /** Current settings, rules with their remaining counts. */
  current(): FaultSettings & { waiting: number } {
    return { ...structuredClone(this.settings), waiting: this.gate.waiting };
  }

  /**
   * Merges `patch` into the settings (a given `rules` replaces the rules). Throws a ZodError when the
   * result is invalid, leaving the settings unchanged.
   */
  update(patch: unknown): FaultSettings {
    // `waiting` is reported by `current()`, not a setting: dropped so a GET body can be posted back.
    const { waiting: _shown, ...base } = z.record(z.string(), z.unknown()).parse(patch);
    const { waiting: _current, ...settings } = this.current();
    const next = FaultSettingsSchema.parse({ ...settings, ...base });
    this.settings = next;
    this.gate.set(next.hold);
    return this.current();
  }

  /** Back to the start-up settings and PRNG state; releases held requests. */
  reset(): void {
    this.settings = FaultSettingsSchema.parse(this.initial);
    this.random = seededRandom(this.seed);
    this.gate.set(this.settings.hold);
  }

  /** Releases every held request (used when the server closes). */
  releaseAll(): void {
    this.gate.set(false);
  }

  /** Waits while `hold` is set, if it applies to `account` (see `holdAccount`). */
  waitAtGate(account?: string): Promise<void> {
    const only = this.settings.holdAccount;
    if (only !== undefined && account !== only) return Promise.resolve();
    return this.gate.wait();
  }

  /**
   * Chooses the fault of one API request: the first scripted rule matching the operation and account
   * (spending one of its count), else one PRNG draw against the shares. Called once per API request
   * that passed authentication, so the draw sequence depends only on the request sequence.
   */
  choose(op: { number: number; name: string }, account: string): ChosenFault | undefined {
    const ruleIndex = this.settings.rules.findIndex(
      (r) =>
        r.count > 0 && (r.op === undefined || r.op === op.number || r.op === op.name) && (r.account === undefined || r.account === account),
    );
    if (ruleIndex >= 0) {
      const rule = this.settings.rules[ruleIndex];
      rule.count -= 1;
      if (rule.count === 0) this.settings.rules.splice(ruleIndex, 1);
      return {
        kind: rule.kind,
        retryAfter: rule.kind === "concurrency" ? -1 : rule.retryAfter,
        delayMs: rule.delayMs,
      };
    }
    const s = this.settings;
    const r = this.random();
    let edge = 0;
    const band = (share: number) => r < (edge += share);
    if (band(s.errorRate * s.errorNoTraceShare)) return { kind: "error500NoTrace" };
    if (band(s.errorRate * (1 - s.errorNoTraceShare))) return { kind: "error500" };
    if (band(s.dropBeforeRate)) return { kind: "dropBefore" };
    if (band(s.dropAfterRate)) return { kind: "dropAfter" };
    if (band(s.malformedRate)) return { kind: "malformed" };
    if (band(s.rateLimitRate)) {
      const retryAfter = s.rateLimitRetryAfter;
      return retryAfter === -1 ? { kind: "concurrency", retryAfter } : { kind: "rateLimit", retryAfter };
    }
    return undefined;
  }

  /** Milliseconds every request waits (the `delayMs` setting). */
  get baseDelayMs(): number {
    return this.settings.delayMs;
  }

  /** Milliseconds a created record stays hidden from reads (the `hideCreatedForMs` setting). */
  get hideCreatedForMs(): number {
    return this.settings.hideCreatedForMs;
  }
}
