/**
 * Where this process shares state, widest place first (limiter: Redis, the machine's files, memory;
 * journal: Redis, its directory, whose failure is an error: a run journaling elsewhere would not find
 * the entries the next needs). A rung's first failure steps down (`giveUp` says so) and the operation
 * runs again there; the last rung's failures are the caller's. A rung that can come back says so
 * (`back`): each operation first climbs to the highest rung back, made anew. Users carry state across.
 */

/** One place: how to make it (on first use) and what to say when it fails. */
export interface Rung<S> {
  readonly make: () => S;
  readonly giveUp?: (error: unknown) => void;
  /** Whether the place, given up before, serves again; without it a rung given up stays so. */
  readonly back?: () => boolean;
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

export class FallbackLadder<S> {
  private step = 0;
  private current: S | undefined;

  constructor(private readonly rungs: readonly Rung<S>[]) {}

  get place(): S {
    this.current ??= this.rungs[this.step]!.make();
    return this.current;
  }

  /** Runs `operation` after climbing to a rung that is back, stepping down while it fails; synchronous while the places are. */
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
