/**
 * The simulator's data: one `SimState` per account, seeded from the fixtures, plus the id counter for
 * records created through the API.
 */
import type { SeedContext, SimState, WireRecord } from "./state";

/**
 * Decision (not shown in spec): ids of created records are numeric-looking strings from one counter
 * shared by every account and collection (spec, Conventions: "Identifiers are strings, including
 * numeric-looking ones"), starting above every seeded id, so an id names one object platform-wide.
 */
export class Store {
  private data = new Map<string, SimState>();
  /** When each record created through the API was created (simulator clock, ms); seeded records have none. */
  private created = new WeakMap<WireRecord, number>();
  private next: number;

  constructor(
    private readonly accounts: readonly SeedContext[],
    private readonly seed: (ctx: SeedContext) => SimState,
    private readonly firstId: number,
  ) {
    this.next = firstId;
    this.reset();
  }

  /** Back to the seeded data of every account; the id counter starts over. */
  reset(): void {
    this.data = new Map(this.accounts.map((ctx) => [ctx.account, this.seed(ctx)]));
    this.created = new WeakMap();
    this.next = this.firstId;
  }

  /** Whether `account` exists. */
  hasAccount(account: string): boolean {
    return this.data.has(account);
  }

  /** The live records of one collection (created empty when a catalog entry names a new one). */
  collection(account: string, collection: string): WireRecord[] {
    const state = this.data.get(account);
    if (!state) throw new RangeError(`unknown account "${account}"`);
    return (state[collection] ??= []);
  }

  /** Records whose fields equal every entry of `where` (values compared as strings: ids are strings). */
  filter(account: string, collection: string, where: Readonly<Record<string, string>>): WireRecord[] {
    const entries = Object.entries(where);
    return this.collection(account, collection).filter((record) =>
      entries.every(([field, value]) => record[field] !== undefined && String(record[field] as string | number) === value),
    );
  }

  /** The first record matching `where`, if any. */
  find(account: string, collection: string, where: Readonly<Record<string, string>>): WireRecord | undefined {
    return this.filter(account, collection, where)[0];
  }

  /** Appends a record; `createdAt` (simulator clock, ms) for one created through the API. */
  insert(account: string, collection: string, record: WireRecord, createdAt?: number): void {
    this.collection(account, collection).push(record);
    if (createdAt !== undefined) this.created.set(record, createdAt);
  }

  /** When `record` was created through the API (simulator clock, ms); undefined for a seeded one. */
  createdAt(record: WireRecord): number | undefined {
    return this.created.get(record);
  }

  /**
   * Removes the first record matching `where` (drift simulation); false when there is none. `where`
   * can name a parent too (`{ id: "1", ab_test_id: "302" }`), since some ids are unique only within
   * their parent.
   */
  remove(account: string, collection: string, where: Readonly<Record<string, string>>): boolean {
    const target = this.find(account, collection, where);
    if (!target) return false;
    const records = this.collection(account, collection);
    records.splice(records.indexOf(target), 1);
    return true;
  }

  /** A fresh id for a created record. */
  nextId(): string {
    return String(this.next++);
  }

  /** A deep copy of one account's state, in wire shape. */
  snapshot(account: string): SimState {
    const state = this.data.get(account);
    if (!state) throw new RangeError(`unknown account "${account}"`);
    return structuredClone(state);
  }
}
