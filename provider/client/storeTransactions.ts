/**
 * One limiter's transactions on its `LimiterStore`, one at a time. A transaction takes over the
 * store's state (`adopt`), runs the limiter's decision, and writes the limiter's view back
 * (`publish`). A transaction asked for while another is pending (an asynchronous store has not
 * saved it yet, or the decision itself asked for one) waits, and runs after those asked for before
 * it: transactions never nest nor interleave, so every decision works on the state its own
 * transaction read. With a synchronous store a transaction, and any that waited for it, has run
 * when `run` returns: no turn of the event loop is added.
 */
import { isPromiseLike, type LimiterState, type LimiterStore } from "./limiterStore";

/** What the limiter does around its decisions. */
export interface TransactionHooks {
  /** Takes over the store's state (without changing it). */
  adopt(state: LimiterState): void;
  /** Writes the limiter's view into the state the store saves. */
  publish(state: LimiterState): void;
  /** An asynchronous store failed a transaction; its decision may not have run. */
  failed(error: unknown): void;
}

export class StoreTransactions {
  /** True from the start of a transaction until the store has saved it. */
  private pending = false;
  /** Decisions asked for while one was pending, in order. */
  private readonly waiting: (() => void)[] = [];
  /** Transactions started so far. */
  private started = 0;

  constructor(
    private readonly store: LimiterStore,
    private readonly hooks: TransactionHooks,
  ) {}

  /** Decisions waiting for the pending transaction. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `decide` in a transaction now, or after the pending one and those already waiting. */
  run(decide: () => void): void {
    if (this.pending) {
      this.waiting.push(decide);
      return;
    }
    this.pending = true;
    this.started += 1;
    let saved: void | PromiseLike<void>;
    try {
      saved = this.store.transact((state) => {
        this.hooks.adopt(state);
        decide();
        this.hooks.publish(state);
      });
    } catch (error) {
      this.ended();
      throw error;
    }
    if (isPromiseLike(saved)) {
      saved.then(
        () => this.ended(),
        (error: unknown) => {
          this.hooks.failed(error);
          this.ended();
        },
      );
    } else {
      this.ended();
    }
  }

  /**
   * Reads the store without a transaction and takes the state over (for a snapshot). Skipped while
   * a transaction is pending. An asynchronous store's answer is taken over when it arrives, unless
   * a transaction started meanwhile (it read a newer state).
   */
  look(): void {
    if (this.pending) return;
    const startedBefore = this.started;
    const state = this.store.load();
    if (!isPromiseLike(state)) return this.hooks.adopt(state);
    state.then(
      (read) => {
        if (!this.pending && this.started === startedBefore) this.hooks.adopt(read);
      },
      () => undefined, // a look is for a snapshot: the next transaction reports a broken store
    );
  }

  private ended(): void {
    this.pending = false;
    const next = this.waiting.shift();
    if (next) this.run(next);
  }
}
