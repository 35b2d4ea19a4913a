/**
 * The create journal (docs/ARCHITECTURE.md, "The create journal"): its directory, its entries, its
 * durable store, and the creates under way in this process.
 */
import { CreateJournal } from "./createJournal";
import { journalDir } from "./journalDir";

export { CreateJournal, JOURNAL_ENTRY_TTL_MS } from "./createJournal";
export { CONFIG_JOURNAL_DIR, ENV_JOURNAL_DIR, configureJournalDir, journalDir } from "./journalDir";
export { JournalEntry, JOURNAL_FORMAT, canonicalJson, entryFileName, inputsHash, journalAccount } from "./journalEntry";
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
