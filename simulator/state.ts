/** Shapes of the simulator's stored data. */

/** One stored record, in wire shape (snake_case, parent ids as fields). */
export type WireRecord = Record<string, unknown>;

/**
 * One account's data: collection key (`StoreBinding.collection`, `bindings.ts`) -> records.
 * `GET /_sim/state` returns exactly this object.
 */
export type SimState = Record<string, WireRecord[]>;

/** What every fixture builder knows about the account it seeds. */
export interface SeedContext {
  /** Account name, e.g. `demo`. */
  readonly account: string;
  /** Company id stamped on the account's records (`company_id`). */
  readonly companyId: string;
}
