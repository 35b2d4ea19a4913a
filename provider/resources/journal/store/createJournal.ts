/**
 * The durable store of the create journal on this machine. The API has no idempotency key and no
 * way to find a created object by name (spec, Endpoints 2 and 3), so an entry written before a POST
 * leaves is the only record that a killed run may have created something. One small JSON file per
 * resource URN in one directory (the `journalDir` setting), written through a temporary file,
 * `fsync`, a rename and an `fsync` of the directory, so an entry is on disk before the request it
 * announces leaves, and a crash leaves either the old entry or the new one, never a torn one.
 *
 * Synchronous on purpose: a write completes before the caller's next step (the request) starts, and
 * the processes sharing the directory (plugins, programs) never see a half-done step of each other.
 * Entries of different URNs are different files, so processes writing at once do not interfere.
 *
 * The directory is used only when private to this user (`ensurePrivateDirectory`), and no file in it
 * is written or read through a link: an entry decides whether a create is sent or an object taken
 * over, so one another user could plant or redirect must never be read.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDirectory, readFileNoLink, writeFileAtomically } from "../../../infrastructure";
import { AdPlatformError } from "../../../errors";
import { type JournalEntry, entryFileName } from "./journalEntry";
import type { JournalStore } from "./journalStore";
import { newerJournalEntryError, readStoredEntry, type StoredEntry } from "./storedEntry";

/**
 * Decision: an entry is kept at most 7 days after its request was sent. Entries the engine learns
 * of are removed at once (see `../settle.ts`); what stays is the
 * record of a run that was interrupted, and a rerun within a week finds it. Older entries are
 * removed when a process first opens the journal, except an `ambiguous` one: it stands for an object
 * that may exist, and only a person who looked on the platform removes it.
 */
export const JOURNAL_ENTRY_TTL_MS = 7 * 24 * 60 * 60 * 1000; // 7 days

// Decision: a journal directory that is not private is an error, not a fallback to another
// directory: the journal exists to prevent duplicate creates across runs, and a run journaling
// elsewhere would not find the entries the next run needs. Nothing is sent until it is fixed.
/** The journal in `dir`. */
export class CreateJournal implements JournalStore {
  private checked = false;

  constructor(readonly dir: string) {}

  get where(): string {
    return this.dir;
  }

  /**
   * The entry of `urn`, or undefined (none, or unreadable: a file that is not an entry is removed).
   * Throws `ADP_ERR_JOURNAL_NEWER_ENTRY` for a newer release's entry, which stays (`storedEntry.ts`).
   */
  get(urn: string): JournalEntry | undefined {
    this.checkDirectory();
    const stored = this.readFile(join(this.dir, entryFileName(urn)));
    if (stored !== undefined && "newerFormat" in stored) throw newerJournalEntryError(urn, stored.newerFormat, this.dir);
    return stored !== undefined && "entry" in stored && stored.entry.urn === urn ? stored.entry : undefined;
  }

  /** Writes `entry` durably (see the module comment), replacing the URN's previous entry. */
  put(entry: JournalEntry): void {
    this.checkDirectory();
    writeFileAtomically(this.dir, entryFileName(entry.urn), JSON.stringify(entry));
  }

  /** Removes the entry of `urn` (nothing when there is none). */
  remove(urn: string): void {
    rmSync(join(this.dir, entryFileName(urn)), { force: true });
  }

  /** Removes the entry of `urn` when it records the object `id`; true when it did. */
  removeIfId(urn: string, id: string): boolean {
    const entry = this.get(urn);
    if (entry?.id !== id) return false;
    this.remove(urn);
    return true;
  }

  /** Removes every entry recording object `id` of `kind` on `account` (a scan: for callers without a URN). */
  removeById(kind: string, account: string, id: string): void {
    for (const [file, entry] of this.entries()) {
      if (entry.kind === kind && entry.account === account && entry.id === id) rmSync(file, { force: true });
    }
  }

  /** Removes entries sent more than `ttlMs` before `now`, and temporary files left by a crash. */
  sweep(now: number, ttlMs: number = JOURNAL_ENTRY_TTL_MS): void {
    for (const name of this.names()) {
      const file = join(this.dir, name);
      if (name.endsWith(".tmp")) {
        // A temporary file older than a minute belongs to a write that never finished.
        if (this.ageMs(file, now) > 60_000) rmSync(file, { force: true });
        continue;
      }
      const stored = this.readFile(file);
      if (stored === undefined || !("entry" in stored) || stored.entry.state === "ambiguous") continue;
      if (now - stored.entry.sentAt > ttlMs) rmSync(file, { force: true });
    }
  }

  /** Every `ambiguous` entry (`../ambiguousRecords.ts` lists them at preview). */
  ambiguous(): JournalEntry[] {
    return this.entries()
      .map(([, entry]) => entry)
      .filter((entry) => entry.state === "ambiguous");
  }

  /** Every readable entry of this release's format with its file (a newer release's are left alone). */
  entries(): [string, JournalEntry][] {
    const out: [string, JournalEntry][] = [];
    for (const name of this.names()) {
      if (!name.endsWith(".json")) continue;
      const file = join(this.dir, name);
      const stored = this.readFile(file);
      if (stored !== undefined && "entry" in stored) out.push([file, stored.entry]);
    }
    return out;
  }

  /**
   * Makes the directory, or checks the one there is, once per instance; a clear error when it is not
   * private to this user.
   */
  private checkDirectory(): void {
    if (this.checked) return;
    try {
      ensurePrivateDirectory(this.dir);
    } catch (error) {
      throw new AdPlatformError(
        "ADP_ERR_UNSAFE_DIRECTORY",
        `the create journal directory cannot be used: ${error instanceof Error ? error.message : String(error)}. ` +
          `Set adplatform:journalDir or ADPLATFORM_JOURNAL_DIR to a directory of your own (mode 0700).`,
        { cause: error },
      );
    }
    this.checked = true;
  }

  private names(): string[] {
    this.checkDirectory();
    try {
      return readdirSync(this.dir);
    } catch {
      return [];
    }
  }

  private ageMs(file: string, now: number): number {
    try {
      return now - statSync(file).mtimeMs;
    } catch {
      return 0;
    }
  }

  /** The stored entry in `file` (undefined when there is none); a file that is not an entry is removed. */
  private readFile(file: string): StoredEntry | undefined {
    let text: string;
    try {
      text = readFileNoLink(file);
    } catch {
      return undefined;
    }
    const stored = readStoredEntry(text);
    // Writes are atomic, so an unreadable file is not a torn entry of ours: it is junk in our directory.
    if ("unreadable" in stored) rmSync(file, { force: true });
    return stored;
  }
}
