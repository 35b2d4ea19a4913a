/**
 * The simulator's whole mutable world in one object: data, rate windows, in-flight counters, fault
 * settings and the request log. The HTTP layers (`apiHandler.ts`, `inspection.ts`) read and change it.
 */
import type { RateClassName } from "../provider/catalog";
import type { AccountConfig } from "./auth";
import { FaultInjector } from "./faults";
import { rateClassOf, type SimulatorOptions } from "./options";
import { AccountRateLimiter, InFlightCounter, type RateHeaders, type WindowReport } from "./rateLimiter";
import { RequestLogBook } from "./requestLog";
import { Router } from "./router";
import { Store } from "./store";

/** What `GET /_sim/windows` returns for one account. */
export interface WindowsReport {
  account: string;
  inFlight: { current: number; peak: number; max: number; rejected: number };
  /** Per rate class the account has used: both windows and the count of window 429s. */
  classes: Partial<Record<RateClassName, { burst: WindowReport; steady: WindowReport; rejected: number }>>;
}

const limiterKey = (account: string, rateClass: RateClassName) => `${account}\u0000${rateClass}`;

/** The state behind one running simulator. */
export class Simulation {
  readonly store: Store;
  readonly faults: FaultInjector;
  readonly log = new RequestLogBook();
  readonly router: Router;
  private limiters = new Map<string, AccountRateLimiter>();
  private inFlight = new Map<string, InFlightCounter>();

  constructor(readonly options: SimulatorOptions) {
    this.store = new Store(
      options.accounts.map(({ account, companyId }) => ({ account, companyId })),
      options.fixtures,
      options.firstCreatedId,
    );
    this.faults = new FaultInjector(options.faults, options.seed);
    this.router = new Router(options.operations);
  }

  /** The simulator clock (ms). */
  now(): number {
    return this.options.now();
  }

  /** The account named `name`, if configured. */
  account(name: string): AccountConfig | undefined {
    return this.options.accounts.find((a) => a.account === name);
  }

  /** spec, Authentication 3: limits apply per account (and per rate class, Limits 2). */
  limiter(account: string, rateClass: RateClassName): AccountRateLimiter {
    const key = limiterKey(account, rateClass);
    let limiter = this.limiters.get(key);
    if (!limiter) this.limiters.set(key, (limiter = this.unusedLimiter(rateClass)));
    return limiter;
  }

  /**
   * The `X-RateLimit-*` values of an answer the windows did not count (401, 404, 405, 413, a bad
   * path): spec, Limits 5 gives the headers to every response that did not hit the limit. They
   * describe the account's windows as they stand; a request of no known account is counted in no
   * account's windows, so it is told the limits of windows nothing has used. Looking opens no window.
   */
  standingRateHeaders(account: string | undefined, rateClass: RateClassName): RateHeaders {
    const limiter = account === undefined ? undefined : this.limiters.get(limiterKey(account, rateClass));
    return (limiter ?? this.unusedLimiter(rateClass)).headers(this.now());
  }

  private unusedLimiter(rateClass: RateClassName): AccountRateLimiter {
    return new AccountRateLimiter(rateClassOf(this.options, rateClass), this.options.burstWindowMs, this.options.steadyWindowMs);
  }

  /** The in-flight counter of one account (spec, Limits 6). */
  inFlightOf(account: string): InFlightCounter {
    let counter = this.inFlight.get(account);
    if (!counter) this.inFlight.set(account, (counter = new InFlightCounter(this.options.maxInFlight)));
    return counter;
  }

  /** Window counters of one account, for tests that check a client never overran a window. */
  windows(account: string): WindowsReport {
    const now = this.now();
    const counter = this.inFlightOf(account);
    const classes: WindowsReport["classes"] = {};
    for (const [key, limiter] of this.limiters) {
      const [owner, rateClass] = key.split("\u0000") as [string, RateClassName];
      if (owner !== account) continue;
      classes[rateClass] = { burst: limiter.burst.report(now), steady: limiter.steady.report(now), rejected: limiter.rejected };
    }
    return {
      account,
      inFlight: { current: counter.current, peak: counter.peak, max: counter.max, rejected: counter.rejected },
      classes,
    };
  }

  /**
   * Back to the start: seeded data, empty log, fresh windows and counters, start-up fault settings
   * (held requests are released). Requests in flight finish against the new state.
   */
  reset(): void {
    this.store.reset();
    this.log.clear();
    this.limiters.clear();
    this.inFlight.clear();
    this.faults.reset();
  }
}
