/**
 * The create journal in Redis, beside the shared limiter state, so another machine finds what a killed run created.
 * - Keys: `adplatform:journal:<hash of URN>` (the entry) and, once answered, `adplatform:journal:id:<hash
 *   of kind, account, id>` (its URN), both expiring with the entry, and the set `adplatform:journal:ambiguous`
 *   (whose entries never expire). None holds the token.
 * - One command on one key per step, so Redis Cluster slots do not matter. The index is written before
 *   its entry and removed after it, so an entry with an id always has its index (`removeIfId` checks).
 * - Durable as the server is (`appendonly yes`, `appendfsync always` to match the directory's fsync); a
 *   failover may lose writes. Shared with the limiter's store: a failure makes the URL away for both.
 */
import type { Redis } from "ioredis";
import { type SharedRedis, sharedRedis } from "../../../infrastructure";
import { JOURNAL_ENTRY_TTL_MS } from "./createJournal";
import { type JournalEntry, keyHash } from "./journalEntry";
import type { JournalStore } from "./journalStore";
import { entryFor, readStoredEntry } from "./storedEntry";

export const REDIS_JOURNAL_PREFIX = "adplatform:journal:";

const entryKey = (urn: string) => `${REDIS_JOURNAL_PREFIX}${keyHash(urn)}`;
/** So a preview lists them without scanning the keyspace. */
const AMBIGUOUS_KEY = `${REDIS_JOURNAL_PREFIX}ambiguous`;
const idKey = (kind: string, account: string, id: string) => `${REDIS_JOURNAL_PREFIX}id:${keyHash(`${kind}\u0000${account}\u0000${id}`)}`;

/** KEYS entry; ARGV id. Deletes the entry when it records that id. */
const REMOVE_IF_ID = `
local value = redis.call("GET", KEYS[1])
if not value then return 0 end
local ok, entry = pcall(cjson.decode, value)
if not ok or entry["id"] ~= ARGV[1] then return 0 end
redis.call("DEL", KEYS[1])
return 1`;

interface ScriptedRedis extends Redis {
  adplatformJournalRemoveIfId(entry: string, id: string): Promise<number>;
}

export class RedisCreateJournal implements JournalStore {
  private readonly connection: SharedRedis;
  readonly where: string;

  constructor(url: string) {
    this.connection = sharedRedis(url);
    this.connection.defineScript("adplatformJournalRemoveIfId", 1, REMOVE_IF_ID);
    this.where = this.connection.shownUrl;
  }

  async get(urn: string): Promise<JournalEntry | undefined> {
    const value = await this.run((client) => client.get(entryKey(urn)));
    return value === null ? undefined : entryFor(readStoredEntry(value), urn, this.where);
  }

  async put(entry: JournalEntry): Promise<void> {
    if (entry.state === "ambiguous") {
      // Listed before it is written, and kept without expiry.
      await this.run((client) => client.sadd(AMBIGUOUS_KEY, entry.urn));
      await this.run((client) => client.set(entryKey(entry.urn), JSON.stringify(entry)));
      return;
    }
    const ttl = Math.max(1, Math.round(entry.sentAt + JOURNAL_ENTRY_TTL_MS - Date.now()));
    if (entry.id !== undefined) await this.run((client) => client.set(idKey(entry.kind, entry.account, entry.id!), entry.urn, "PX", ttl));
    await this.run((client) => client.set(entryKey(entry.urn), JSON.stringify(entry), "PX", ttl));
  }

  async remove(urn: string): Promise<void> {
    const entry = await this.get(urn);
    await this.run((client) => client.del(entryKey(urn)));
    if (entry?.id !== undefined) await this.run((client) => client.del(idKey(entry.kind, entry.account, entry.id!)));
    await this.run((client) => client.srem(AMBIGUOUS_KEY, urn));
  }

  async ambiguous(): Promise<JournalEntry[]> {
    const urns = await this.run((client) => client.smembers(AMBIGUOUS_KEY));
    const entries: JournalEntry[] = [];
    for (const urn of urns.sort()) {
      const entry = await this.get(urn);
      if (entry?.state === "ambiguous") entries.push(entry);
    }
    return entries;
  }

  async removeIfId(urn: string, id: string): Promise<boolean> {
    const entry = await this.get(urn);
    if (entry?.id !== id) return false;
    const removed = (await this.run((client) => client.adplatformJournalRemoveIfId(entryKey(urn), id))) === 1;
    if (removed) await this.run((client) => client.del(idKey(entry.kind, entry.account, id)));
    return removed;
  }

  async removeById(kind: string, account: string, id: string): Promise<void> {
    const urn = await this.run((client) => client.get(idKey(kind, account, id)));
    if (urn !== null) await this.removeIfId(urn, id);
  }

  private run<T>(command: (client: ScriptedRedis) => Promise<T>): Promise<T> {
    return this.connection.run((client) => command(client as ScriptedRedis));
  }
}
