/** The create journal's store: it stores and expires entries and decides nothing about creates. */
import { isRedisUrl, FallbackLadder } from "../../../infrastructure";
import type { Settings } from "../../../configuration";
import { CreateJournal } from "./createJournal";
import { besideMachineJournal, journalOnLadder, type JournalStore } from "./journalStore";
import { RedisCreateJournal } from "./redisCreateJournal";

export { CreateJournal, JOURNAL_ENTRY_TTL_MS } from "./createJournal";
export { JournalEntry, JOURNAL_FORMAT, ambiguousRecordId, canonicalJson, entryFileName, inputsHash, journalAccount } from "./journalEntry";
export { journalOnLadder, type JournalStore } from "./journalStore";
export { RedisCreateJournal, REDIS_JOURNAL_PREFIX } from "./redisCreateJournal";

const swept = new Set<string>();

/** The journal in `dir`; the first use of a directory in a process sweeps it. */
export function journalIn(dir: string, now: number = Date.now()): CreateJournal {
  const journal = new CreateJournal(dir);
  if (!swept.has(journal.dir)) {
    swept.add(journal.dir);
    journal.sweep(now);
  }
  return journal;
}

/** The journal of `settings`: Redis (the directory read beside it) stepping down to the directory, or the directory. */
export function journalStoreFor(settings: Pick<Settings, "journalDir" | "limitsUrl">): JournalStore {
  let machine: JournalStore | undefined;
  const directory = () => (machine ??= journalIn(settings.journalDir));
  const url = settings.limitsUrl;
  if (url === undefined || !isRedisUrl(url)) return directory();
  return journalOnLadder(
    new FallbackLadder<JournalStore>([{ make: () => besideMachineJournal(new RedisCreateJournal(url), directory) }, { make: directory }]),
  );
}
export { KnownStack, LeftBehindObject, leftBehindPlaces, leftBehindWriter, readLeftBehind, stackOfUrn } from "./leftBehindList";
