/**
 * A `LimiterStore` that uses a shared store (Redis) while it works and a local one (the machine's
 * file store) once it does not: a deployment never fails because the place it shares its limits
 * through is down, unreachable, refuses authentication, or goes away mid-run. The switch happens
 * at the first failure, for the rest of the process, and is reported once (`onFallback`); the
 * limiter keeps its own view of the windows, so it goes on where it was.
 */
import { isPromiseLike, type LimiterState, type LimiterStore } from "./limiterStore";

export class FallbackLimiterStore implements LimiterStore {
  private local: LimiterStore | undefined;
  private failedOver = false;

  /**
   * `makeLocal` is called once, at the switch (no local state is made while the shared store
   * works); `onFallback` is told why, once.
   */
  constructor(
    private readonly shared: LimiterStore,
    private readonly makeLocal: () => LimiterStore,
    private readonly onFallback: (error: unknown) => void,
  ) {}

  /** Whether the shared store failed and the local one is in use. */
  get usingLocal(): boolean {
    return this.failedOver;
  }

  /**
   * Runs `fn` in a shared transaction; when that fails before `fn` ran, in a local one instead. When
   * it fails after (the write was lost), `fn`'s result stands: the permits it handed out are
   * real. An error `fn` threw is its own, and is passed on.
   */
  transact<T>(fn: (state: LimiterState) => T): T | Promise<T> {
    if (this.failedOver) return this.localStore().transact(fn);
    let ran = false;
    let threw = false;
    let result: T;
    const tracked = (state: LimiterState): T => {
      ran = true;
      try {
        result = fn(state);
        return result;
      } catch (error) {
        threw = true;
        throw error;
      }
    };
    const recover = (error: unknown): T | Promise<T> => {
      if (threw) throw error;
      this.switchToLocal(error);
      return ran ? result : this.localStore().transact(fn);
    };
    let answer: T | Promise<T>;
    try {
      answer = this.shared.transact(tracked);
    } catch (error) {
      return recover(error);
    }
    return isPromiseLike(answer) ? Promise.resolve(answer).catch(recover) : answer;
  }

  load(): LimiterState | Promise<LimiterState> {
    if (this.failedOver) return this.localStore().load();
    const recover = (error: unknown) => {
      this.switchToLocal(error);
      return this.localStore().load();
    };
    try {
      const state = this.shared.load();
      return isPromiseLike(state) ? Promise.resolve(state).catch(recover) : state;
    } catch (error) {
      return recover(error);
    }
  }

  private switchToLocal(error: unknown): void {
    if (this.failedOver) return;
    this.failedOver = true;
    this.onFallback(error);
  }

  private localStore(): LimiterStore {
    this.local ??= this.makeLocal();
    return this.local;
  }
}
