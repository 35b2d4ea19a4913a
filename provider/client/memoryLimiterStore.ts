/**
 * A `LimiterStore` in this process's memory, on the asynchronous side of the interface: every read
 * and every write completes on a later turn (as a networked store's would), and the transactions
 * of all the limiters on one store run one at a time, in the order they were asked for. The state
 * is kept serialized, as a networked store holds it: no object is shared between limiters, and
 * every read is validated by the schema.
 *
 * One instance per account; the limiters of this process that share it count as one.
 */
import { emptyLimiterState, type LimiterState, LimiterStateSchema, type LimiterStore } from "./limiterStore";

/** One turn of the microtask queue: what stands for a round trip. */
const turn = (): Promise<void> => Promise.resolve();

export class MemoryLimiterStore implements LimiterStore {
  private saved = JSON.stringify(emptyLimiterState());
  /** The last transaction asked for; the next one starts when it has finished. */
  private last: Promise<unknown> = Promise.resolve();
  /** Transactions asked for and not finished. */
  private pending = 0;
  private highestPending = 0;

  /**
   * Most transactions that were asked for and not finished at one time: above 1 when limiters
   * asked for one while another was pending (tests show the overlap with it).
   */
  get mostPending(): number {
    return this.highestPending;
  }

  transact<T>(fn: (state: LimiterState) => T): Promise<T> {
    this.pending += 1;
    this.highestPending = Math.max(this.highestPending, this.pending);
    const result = this.last.then(async () => {
      try {
        const state = await this.read();
        const value = fn(state);
        await turn();
        this.saved = JSON.stringify(state);
        return value;
      } finally {
        this.pending -= 1;
      }
    });
    this.last = result.catch(() => undefined);
    return result;
  }

  load(): Promise<LimiterState> {
    return this.read();
  }

  private async read(): Promise<LimiterState> {
    await turn();
    return LimiterStateSchema.parse(JSON.parse(this.saved));
  }
}
