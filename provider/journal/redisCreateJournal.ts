/**
 * The create journal in Redis, for runs that may resume on another machine: with a limits URL
 * (`adplatform:limitsUrl`, `ADPLATFORM_LIMITS_URL`) the entries live beside the shared limiter
 * state, so a CI run on another machine finds what a killed run on this one created.
 *
 * - Keys: `adplatform:journal:<hash of the URN>` (the entry, JSON) and, once answered,
 *   `adplatform:journal:id:<hash of kind, account and id>` (the URN's key), both expiring with the
 *   entry's time to live. Neither holds the token.
 * - Durable as the server is: an entry survives a crash of the server only with its persistence
 *   (`appendonly yes`, `appendfsync always` to match the directory journal's fsync).
 * - It runs on this process's one connection to the URL (`../infrastructure/redis.ts`), shared
 *   with the limiter's store: a failure of either gives the URL up for both, with one warning, and
 *   the fallback ladder steps down to the directory journal (`journalOnLadder`).
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { type SharedRedis, sharedRedis } from "../infrastructure/redis";
import { JOURNAL_ENTRY_TTL_MS } from "./createJournal";
import type { JournalEntry } from "./journalEntry";
import type { JournalStore } from "./journalStore";
import { NewerJournalEntryError, readStoredEntry } from "./storedEntry";

/** Prefix of every key the journal writes. */
export const REDIS_JOURNAL_PREFIX = "adplatform:journal:";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const entryKey = (urn: string) => `${REDIS_JOURNAL_PREFIX}${sha256(urn).slice(0, 40)}`;
const idKey = (kind: string, account: string, id: string) =>
  `${REDIS_JOURNAL_PREFIX}id:${sha256(`${kind}\u0000${account}\u0000${id}`).slice(0, 40)}`;

/** KEYS entry, id key; ARGV id. Deletes both when the entry records that id. */
const REMOVE_IF_ID = `
local value = redis.call("GET", KEYS[1])
if not value then return 0 end
local ok, entry = pcall(cjson.decode, value)
if not ok or entry["id"] ~= ARGV[1] then return 0 end
redis.call("DEL", KEYS[1], KEYS[2])
return 1`;

interface ScriptedRedis extends Redis {
  adplatformJournalRemoveIfId(entry: string, id: string, value: string): Promise<number>;
}

/** The journal at a Redis URL. */
export class RedisCreateJournal implements JournalStore {
  private readonly connection: SharedRedis;

  constructor(url: string) {
    this.connection = sharedRedis(url);
    this.connection.defineScript("adplatformJournalRemoveIfId", 2, REMOVE_IF_ID);
  }

  get where(): string {
    return this.connection.shownUrl;
  }

  /** Whether the URL is given up for this process (its fallback is then in use). */
  get unusable(): boolean {
    return this.connection.unusable;
  }

  async get(urn: string): Promise<JournalEntry | undefined> {
    const value = await this.run((client) => client.get(entryKey(urn)));
    if (value === null) return undefined;
    const stored = readStoredEntry(value);
    // A newer release's entry stays, and this release sends no create for its URN (storedEntry.ts).
    if ("newerFormat" in stored) throw new NewerJournalEntryError(urn, stored.newerFormat, this.where);
    return "entry" in stored && stored.entry.urn === urn ? stored.entry : undefined;
  }

  async put(entry: JournalEntry): Promise<void> {
    const ttl = Math.max(1, Math.round(entry.sentAt + JOURNAL_ENTRY_TTL_MS - Date.now()));
    await this.run(async (client) => {
      const batch = client.multi().set(entryKey(entry.urn), JSON.stringify(entry), "PX", ttl);
      if (entry.id !== undefined) batch.set(idKey(entry.kind, entry.account, entry.id), entry.urn, "PX", ttl);
      const results = await batch.exec();
      const failed = results?.find(([error]) => error !== null);
      if (results === null || failed) throw failed?.[0] ?? new Error("the transaction was discarded");
    });
  }

  async remove(urn: string): Promise<void> {
    const entry = await this.get(urn);
    const keys = [entryKey(urn), ...(entry?.id !== undefined ? [idKey(entry.kind, entry.account, entry.id)] : [])];
    await this.run((client) => client.del(...keys));
  }

  async removeIfId(urn: string, id: string): Promise<boolean> {
    const entry = await this.get(urn);
    if (entry?.id !== id) return false;
    const removed = await this.run((client) => client.adplatformJournalRemoveIfId(entryKey(urn), idKey(entry.kind, entry.account, id), id));
    return removed === 1;
  }

  async removeById(kind: string, account: string, id: string): Promise<void> {
    const urn = await this.run((client) => client.get(idKey(kind, account, id)));
    if (urn !== null) await this.removeIfId(urn, id);
  }

  private run<T>(command: (client: ScriptedRedis) => Promise<T>): Promise<T> {
    return this.connection.run((client) => command(client as ScriptedRedis));
  }
}
