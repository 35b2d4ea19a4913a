/**
 * What the create protocol needs of a journal (docs/ARCHITECTURE.md, "The create journal"): the
 * machine's directory (`CreateJournal`) or, with a limits URL, a Redis server every machine of the
 * account reaches (`RedisCreateJournal`). Every method may answer synchronously or with a promise.
 */
import type { CreateJournal } from "./createJournal";
import type { JournalEntry } from "./journalEntry";
import { NewerJournalEntryError } from "./storedEntry";

/** A journal as the create protocol uses it. */
export interface JournalStore {
  /** Where entries are kept, for messages: a directory, or a Redis URL without its password. */
  readonly where: string;
  get(urn: string): JournalEntry | undefined | Promise<JournalEntry | undefined>;
  put(entry: JournalEntry): void | Promise<void>;
  remove(urn: string): void | Promise<void>;
  removeIfId(urn: string, id: string): boolean | Promise<boolean>;
  removeById(kind: string, account: string, id: string): void | Promise<void>;
}

/** The directory journal as a `JournalStore`. */
export function directoryStore(journal: CreateJournal): JournalStore {
  return {
    where: journal.dir,
    get: (urn) => journal.get(urn),
    put: (entry) => journal.put(entry),
    remove: (urn) => journal.remove(urn),
    removeIfId: (urn, id) => journal.removeIfId(urn, id),
    removeById: (kind, account, id) => journal.removeById(kind, account, id),
  };
}

/**
 * `primary` until its first failure, then `fallback` for the rest of the process. The Redis journal
 * fails for good once its URL is given up, and that says so once for the limits and the journal
 * together (`../client/sharedRedis`), so this store has nothing of its own to say.
 */
export class FallbackJournalStore implements JournalStore {
  private failed = false;

  constructor(
    private readonly primary: JournalStore,
    private readonly fallback: () => JournalStore,
  ) {}

  get where(): string {
    return this.failed ? this.fallback().where : this.primary.where;
  }

  get(urn: string) {
    return this.use((store) => store.get(urn));
  }
  put(entry: JournalEntry) {
    return this.use((store) => store.put(entry));
  }
  remove(urn: string) {
    return this.use((store) => store.remove(urn));
  }
  removeIfId(urn: string, id: string) {
    return this.use((store) => store.removeIfId(urn, id));
  }
  removeById(kind: string, account: string, id: string) {
    return this.use((store) => store.removeById(kind, account, id));
  }

  private async use<T>(operation: (store: JournalStore) => T | Promise<T>): Promise<T> {
    if (!this.failed) {
      try {
        return await operation(this.primary);
      } catch (error) {
        // A newer release's entry is an answer, not a failure: the fallback has no entry and would let the create go.
        if (error instanceof NewerJournalEntryError) throw error;
        this.failed = true;
      }
    }
    return operation(this.fallback());
  }
}
