/**
 * The create journal (docs/ARCHITECTURE.md, "The create journal"): its directory, its entries, its
 * durable store, and the creates under way in this process.
 */
import { limitsUrl } from "../client/limiterRegistry";
import { isRedisUrl } from "../client/redisConnection";
import { CreateJournal } from "./createJournal";
import { journalDir } from "./journalDir";
import { FallbackJournalStore, directoryStore, type JournalStore } from "./journalStore";
import { RedisCreateJournal } from "./redisCreateJournal";

export { CreateJournal, JOURNAL_ENTRY_TTL_MS } from "./createJournal";
export { CONFIG_JOURNAL_DIR, ENV_JOURNAL_DIR, configureJournalDir, journalDir } from "./journalDir";
export { JournalEntry, JOURNAL_FORMAT, canonicalJson, entryFileName, inputsHash, journalAccount } from "./journalEntry";
export { FallbackJournalStore, directoryStore, type JournalStore } from "./journalStore";
export { RedisCreateJournal, closeRedisJournals, REDIS_JOURNAL_PREFIX } from "./redisCreateJournal";
export { EngineGoneError, beginCreate, engineGone, engineIsGone, type CreateTicket } from "./inFlightCreates";

const swept = new Set<string>();

/** The journal in the current directory; the first use of a directory in a process sweeps it. */
export function currentJournal(now: number = Date.now()): CreateJournal {
  const journal = new CreateJournal(journalDir());
  if (!swept.has(journal.dir)) {
    swept.add(journal.dir);
    journal.sweep(now);
  }
  return journal;
}

const redisStores = new Map<string, FallbackJournalStore>();

/**
 * The journal the create protocol uses: in Redis when a limits URL is set (the stack config's
 * `adplatform:limitsUrl`, else `ADPLATFORM_LIMITS_URL`), shared by every machine of the account,
 * with the directory journal as the fallback should that Redis fail; else the directory journal.
 */
export function currentJournalStore(url: string | undefined = limitsUrl()): JournalStore {
  const directory = () => directoryStore(currentJournal());
  if (url === undefined || !isRedisUrl(url)) return directory();
  let store = redisStores.get(url);
  if (store === undefined) {
    store = new FallbackJournalStore(new RedisCreateJournal(url), directory);
    redisStores.set(url, store);
  }
  return store;
}
