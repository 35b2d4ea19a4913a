/**
 * The journal entry the journal's store tests write and read back (`createJournal.test.ts`,
 * `redisCreateJournal.test.ts`): one answered create of a bid strategy.
 */
import type { JournalEntry } from "../../provider/resources/journal/store";

/** The URN of `answeredEntry()`. */
export const ENTRY_URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/adplatform:BidStrategy::a";

/** An answered entry for `ENTRY_URN`, sent at 1 s after the epoch; `over` replaces any field. */
export function answeredEntry(over: Partial<JournalEntry> = {}): JournalEntry {
  return {
    format: 1,
    urn: ENTRY_URN,
    kind: "BidStrategy",
    account: "acct",
    inputsHash: "h",
    state: "answered",
    id: "100001",
    host: "h1",
    pid: 1,
    sentAt: 1_000,
    ...over,
  };
}
