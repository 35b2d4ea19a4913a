/**
 * The create journal on this machine (no idempotency key, no find by name: spec, Endpoints 2 and 3): a JSON
 * file per URN in `journalDir`, written atomically and synced, so on disk before the request leaves. Synchronous
 * on purpose: processes sharing the directory never see each other's half-done steps. The directory must be
 * private and no file is used through a link: a planted entry decides whether a create is sent.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDirectory, readFileNoLink, writeFileAtomically } from "../../../infrastructure";
import { AdPlatformError } from "../../../errors";
import { type JournalEntry, entryFileName } from "./journalEntry";
import type { JournalStore } from "./journalStore";
import { entryFor, readStoredEntry, type StoredEntry } from "./storedEntry";

/**
 * Decision: an entry is kept at most 7 days after its send (entries the engine learns of go at once,
 * ../settle.ts), so a rerun within a week finds an interrupted run's. Older ones are swept when a process
 * first opens the journal, except `ambiguous` ones: only a person who looked on the platform removes those.
 */
export const JOURNAL_ENTRY_TTL_MS = 7 * 24 * 60 * 60 * 1000; // 7 days

/** `read()`, or `otherwise` when it throws. */
function orElse<T>(read: () => T, otherwise: T): T {
  try {
    return read();
  } catch {
    return otherwise;
  }
}

// Decision: a directory that is not private is an error, not a fallback (the next run would not find its entries).
export class CreateJournal implements JournalStore {
  private checked = false;

  constructor(readonly dir: string) {}

  get where(): string {
    return this.dir;
  }

  get(urn: string): JournalEntry | undefined {
    this.checkDirectory();
    return entryFor(this.readFile(join(this.dir, entryFileName(urn))), urn, this.dir);
  }

  put(entry: JournalEntry): void {
    this.checkDirectory();
    writeFileAtomically(this.dir, entryFileName(entry.urn), JSON.stringify(entry));
  }

  remove(urn: string): void {
    rmSync(join(this.dir, entryFileName(urn)), { force: true });
  }

  removeIfId(urn: string, id: string): boolean {
    const entry = this.get(urn);
    if (entry?.id !== id) return false;
    this.remove(urn);
    return true;
  }

  /** A scan, for callers without a URN. */
  removeById(kind: string, account: string, id: string): void {
    for (const [file, entry] of this.entries()) {
      if (entry.kind === kind && entry.account === account && entry.id === id) rmSync(file, { force: true });
    }
  }

  /** Removes entries older than `ttlMs` and temporary files left by a crash. */
  sweep(now: number, ttlMs: number = JOURNAL_ENTRY_TTL_MS): void {
    for (const name of this.names()) {
      const file = join(this.dir, name);
      if (name.endsWith(".tmp")) {
        // Older than a minute: a write that never finished.
        if (orElse(() => now - statSync(file).mtimeMs, 0) > 60_000) rmSync(file, { force: true });
        continue;
      }
      const stored = this.readFile(file);
      if (stored === undefined || !("entry" in stored) || stored.entry.state === "ambiguous") continue;
      if (now - stored.entry.sentAt > ttlMs) rmSync(file, { force: true });
    }
  }

  ambiguous(): JournalEntry[] {
    return this.entries()
      .map(([, entry]) => entry)
      .filter((entry) => entry.state === "ambiguous");
  }

  /** Every readable entry of this release's format, with its file. */
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
    return orElse(() => readdirSync(this.dir), []);
  }

  private readFile(file: string): StoredEntry | undefined {
    const text = orElse<string | undefined>(() => readFileNoLink(file), undefined);
    if (text === undefined) return undefined;
    const stored = readStoredEntry(text);
    // Writes are atomic, so an unreadable file is junk, not a torn entry.
    if ("unreadable" in stored) rmSync(file, { force: true });
    return stored;
  }
}
