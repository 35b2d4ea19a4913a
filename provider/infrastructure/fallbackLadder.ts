/**
 * The fallback ladder: where this process shares state with others (the limiter's state, the
 * create journal), from the widest place down. A deployment never fails because a place it shares
 * through is down, unreachable, refuses authentication, goes away mid-run, or is a directory it
 * cannot use: the first failure of a rung steps down to the next one, and that rung's `giveUp` says
 * so (`warnings.ts`; a Redis connection speaks for every user of its URL, `redis.ts`). The
 * operation that failed runs again on the next rung. The last rung's failures are the caller's.
 *
 * A rung that can come back says so (`back`): each operation first climbs to the highest rung
 * above the one in use that is back, and runs there on a place made anew, which reads the shared
 * state afresh. The ladder carries nothing between places; its users do what their records need
 * (the limiter merges its last state into the one it finds, `limiter/limiterRegistry.ts`; the
 * journal on Redis also reads the machine's directory, `journal/journalStore.ts`).
 *
 * The limiter's ladder is Redis, the machine's file store, this process's memory; the journal's is
 * Redis, the journal directory (a directory journal that cannot be written is an error, not a
 * step down: a run journaling elsewhere would not find the entries the next run needs).
 */

/** One place: how to make it (on first use) and what to say when it fails. */
export interface Rung<S> {
  readonly make: () => S;
  readonly giveUp?: (error: unknown) => void;
  /** Whether the place, given up before, serves again; without it a rung given up stays so. */
  readonly back?: () => boolean;
}

/** Whether `value` is a promise (an asynchronous place) rather than the value itself. */
function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

export class FallbackLadder<S> {
  private step = 0;
  private current: S | undefined;

  constructor(private readonly rungs: readonly Rung<S>[]) {}

  /** The place in use now. */
  get place(): S {
    this.current ??= this.rungs[this.step]!.make();
    return this.current;
  }

  /** Whether a rung failed and a lower one is in use. */
  get steppedDown(): boolean {
    return this.step > 0;
  }

  /**
   * Runs `operation` on the place in use, after climbing to a rung that is back; when it fails there
   * and a lower rung is left, steps down and runs it again there. Synchronous while the places
   * answer synchronously.
   */
  run<T>(operation: (place: S) => T | Promise<T>): T | Promise<T> {
    const up = this.rungs.slice(0, this.step).findIndex((rung) => rung.back?.() === true);
    if (up !== -1) {
      this.step = up;
      this.current = undefined;
    }
    return this.attempt(operation);
  }

  /** `run` without the climb: a rung that failed this operation is not tried again for it. */
  private attempt<T>(operation: (place: S) => T | Promise<T>): T | Promise<T> {
    const step = this.step;
    const recover = (error: unknown): T | Promise<T> => {
      if (this.step === step) {
        if (step + 1 >= this.rungs.length) throw error;
        this.rungs[step]!.giveUp?.(error);
        this.step = step + 1;
        this.current = undefined;
      }
      return this.attempt(operation);
    };
    let answer: T | Promise<T>;
    try {
      answer = operation(this.place);
    } catch (error) {
      return recover(error);
    }
    return isPromiseLike(answer) ? Promise.resolve(answer).catch(recover) : answer;
  }
}
