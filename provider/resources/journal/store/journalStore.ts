/** What the create protocol needs of a journal: a directory (`CreateJournal`) or Redis (`RedisCreateJournal`). */
import type { FallbackLadder } from "../../../infrastructure";
import type { JournalEntry } from "./journalEntry";
import { type AdPlatformError, isAdPlatformError } from "../../../errors";

export interface JournalStore {
  /** Where entries are kept, for messages: a directory, or a Redis URL without its password. */
  readonly where: string;
  get(urn: string): JournalEntry | undefined | Promise<JournalEntry | undefined>;
  put(entry: JournalEntry): void | Promise<void>;
  remove(urn: string): void | Promise<void>;
  removeIfId(urn: string, id: string): boolean | Promise<boolean>;
  removeById(kind: string, account: string, id: string): void | Promise<void>;
  /** Every `ambiguous` entry, of any stack. */
  ambiguous(): JournalEntry[] | Promise<JournalEntry[]>;
}

/** A journal on the fallback ladder: each operation on the place in use, stepping down at its first failure. */
export function journalOnLadder(ladder: FallbackLadder<JournalStore>): JournalStore {
  const use = async <T>(operation: (store: JournalStore) => T | Promise<T>): Promise<T> => {
    // A newer release's entry is an answer, not a failure: a lower rung would let the create go.
    const outcome = await ladder.run(async (store): Promise<{ value: T } | { answer: AdPlatformError }> => {
      try {
        return { value: await operation(store) };
      } catch (error) {
        if (isAdPlatformError(error, "ADP_ERR_JOURNAL_NEWER_ENTRY")) return { answer: error };
        throw error;
      }
    });
    if ("answer" in outcome) throw outcome.answer;
    return outcome.value;
  };
  return {
    get where() {
      return ladder.place.where;
    },
    get: (urn) => use((store) => store.get(urn)),
    put: (entry) => use((store) => store.put(entry)),
    remove: (urn) => use((store) => store.remove(urn)),
    removeIfId: (urn, id) => use((store) => store.removeIfId(urn, id)),
    removeById: (kind, account, id) => use((store) => store.removeById(kind, account, id)),
    ambiguous: () => use((store) => store.ambiguous()),
  };
}

/** A shared journal also reading what this machine journaled in its directory while it was away; writes go to the shared one. */
export function besideMachineJournal(shared: JournalStore, machine: () => JournalStore): JournalStore {
  const alsoThere = async <T>(operation: (store: JournalStore) => T | Promise<T>, otherwise: T): Promise<T> => {
    try {
      return await operation(machine());
    } catch (error) {
      if (isAdPlatformError(error, "ADP_ERR_JOURNAL_NEWER_ENTRY")) throw error;
      return otherwise;
    }
  };
  const both = async (operation: (store: JournalStore) => void | Promise<void>) => {
    await operation(shared);
    await alsoThere(operation, undefined);
  };
  return {
    where: shared.where,
    get: async (urn) => (await shared.get(urn)) ?? alsoThere((store) => store.get(urn), undefined),
    put: (entry) => shared.put(entry),
    remove: (urn) => both((store) => store.remove(urn)),
    removeIfId: async (urn, id) => {
      const removed = await shared.removeIfId(urn, id);
      return (await alsoThere((store) => store.removeIfId(urn, id), false)) || removed;
    },
    removeById: (kind, account, id) => both((store) => store.removeById(kind, account, id)),
    ambiguous: async () => {
      const there = await shared.ambiguous();
      const known = new Set(there.map((entry) => entry.urn));
      const here = await alsoThere((store) => store.ambiguous(), [] as JournalEntry[]);
      return [...there, ...here.filter((entry) => !known.has(entry.urn))];
    },
  };
}
