/**
 * Reading an entry when releases share a journal (mid-rollout). A newer `format`'s entry is never read,
 * removed or overwritten, and a create for its URN (which could duplicate that release's object) fails.
 */
import { AdPlatformError } from "../../../errors";
import { JOURNAL_FORMAT, JournalEntry } from "./journalEntry";

export type StoredEntry = { readonly entry: JournalEntry } | { readonly newerFormat: number } | { readonly unreadable: true };

/** Classifies a stored text (a file's content, a Redis value). */
export function readStoredEntry(text: string): StoredEntry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { unreadable: true };
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof format === "number" && Number.isInteger(format) && format > JOURNAL_FORMAT) return { newerFormat: format };
  const parsed = JournalEntry.safeParse(value);
  return parsed.success ? { entry: parsed.data } : { unreadable: true };
}

/** The entry `stored` holds for `urn`; throws `ADP_ERR_JOURNAL_NEWER_ENTRY` for a newer release's. */
export function entryFor(stored: StoredEntry | undefined, urn: string, where: string): JournalEntry | undefined {
  if (stored !== undefined && "newerFormat" in stored) throw newerJournalEntryError(urn, stored.newerFormat, where);
  return stored !== undefined && "entry" in stored && stored.entry.urn === urn ? stored.entry : undefined;
}

function newerJournalEntryError(urn: string, format: number, where: string): AdPlatformError {
  return new AdPlatformError(
    "ADP_ERR_JOURNAL_NEWER_ENTRY",
    `the create journal in ${where} holds an entry for ${urn} written by a newer release of pulumi-adplatform ` +
      `(journal format ${format}; this release reads format ${JOURNAL_FORMAT}). Nothing was sent and the entry is left as it is: ` +
      `run this update with that newer release, which knows whether its create reached the platform.`,
  );
}
