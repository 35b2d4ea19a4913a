/**
 * The create journal in Redis (docs/ARCHITECTURE.md, "The create journal"): with a limits URL
 * (`adplatform:limitsUrl`, `ADPLATFORM_LIMITS_URL`) the entries live beside the shared limiter
 * state, so a CI run on another machine finds what a killed run on this one created.
 *
 * - Keys: `adplatform:{<account>}:journal:<hash of the URN>` (the entry, JSON) and, once answered,
 *   `adplatform:{<account>}:journal:id:<hash of kind, account and id>` (the URN's key), both
 *   expiring with the entry's time to live. `<account>` is the limiter's name of the account
 *   (`sharedStateName`, a hash: never the token), in braces, so every key of one account is in one
 *   Redis Cluster hash slot and a step over an entry and its id key stays one command on one node.
 * - Release 0.1.0 wrote `adplatform:journal:<hash of the URN>` and `adplatform:journal:id:<...>`
 *   (no account, so no slot in common): an entry is looked for there too when the account's has
 *   none, and removed from there too, each key on its own, until those keys expire (7 days).
 * - Durable as the server is: an entry survives a crash of the server only with its persistence
 *   (`appendonly yes`, `appendfsync always` to match the directory journal's fsync); a failover
 *   may lose the writes the replica had not received.
 * - It runs on this process's one connection to the URL (`../infrastructure/redis.ts`), shared
 *   with the limiter's store: a failure of either makes the URL away for both, with one warning,
 *   and the fallback ladder steps down to the directory journal (`journalOnLadder`).
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { type SharedRedis, sharedRedis } from "../infrastructure/redis";
import { JOURNAL_ENTRY_TTL_MS } from "./createJournal";
import type { JournalEntry } from "./journalEntry";
import type { JournalStore } from "./journalStore";
import { NewerJournalEntryError, readStoredEntry } from "./storedEntry";

/** Prefix of every key release 0.1.0 wrote (read and removed, never written). */
export const REDIS_JOURNAL_PREFIX = "adplatform:journal:";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** An entry's two keys under a prefix. */
interface JournalKeys {
  entry(urn: string): string;
  id(kind: string, account: string, id: string): string;
}

function keysUnder(prefix: string): JournalKeys {
  return {
    entry: (urn) => `${prefix}${sha256(urn).slice(0, 40)}`,
    id: (kind, account, id) => `${prefix}id:${sha256(`${kind}\u0000${account}\u0000${id}`).slice(0, 40)}`,
  };
}

/** The keys of the account named `account` (`sharedStateName`), in its hash slot. */
export const redisJournalKeys = (account: string): JournalKeys => keysUnder(`adplatform:{${account}}:journal:`);
const RELEASE_0_1_KEYS = keysUnder(REDIS_JOURNAL_PREFIX);

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

/** The journal of one account at a Redis URL. */
export class RedisCreateJournal implements JournalStore {
  private readonly connection: SharedRedis;
  private readonly keys: JournalKeys;

  /** `account`: the account's name in the limiter's stores (`sharedStateName`). */
  constructor(url: string, account: string) {
    this.connection = sharedRedis(url);
    this.connection.defineScript("adplatformJournalRemoveIfId", 2, REMOVE_IF_ID);
    this.keys = redisJournalKeys(account);
  }

  get where(): string {
    return this.connection.shownUrl;
  }

  async get(urn: string): Promise<JournalEntry | undefined> {
    return (await this.getUnder(this.keys, urn)) ?? this.getUnder(RELEASE_0_1_KEYS, urn);
  }

  async put(entry: JournalEntry): Promise<void> {
    const ttl = Math.max(1, Math.round(entry.sentAt + JOURNAL_ENTRY_TTL_MS - Date.now()));
    await this.run(async (client) => {
      const batch = client.multi().set(this.keys.entry(entry.urn), JSON.stringify(entry), "PX", ttl);
      if (entry.id !== undefined) batch.set(this.keys.id(entry.kind, entry.account, entry.id), entry.urn, "PX", ttl);
      const results = await batch.exec();
      const failed = results?.find(([error]) => error !== null);
      if (results === null || failed) throw failed?.[0] ?? new Error("the transaction was discarded");
    });
  }

  async remove(urn: string): Promise<void> {
    for (const keys of [this.keys, RELEASE_0_1_KEYS]) {
      const entry = await this.getUnder(keys, urn);
      // One key at a time: 0.1.0's two keys of an entry may be in two hash slots.
      await this.run((client) => client.del(keys.entry(urn)));
      if (entry?.id !== undefined) await this.run((client) => client.del(keys.id(entry.kind, entry.account, entry.id!)));
    }
  }

  async removeIfId(urn: string, id: string): Promise<boolean> {
    const entry = await this.getUnder(this.keys, urn);
    if (entry?.id === id) {
      const removed = await this.run((client) =>
        client.adplatformJournalRemoveIfId(this.keys.entry(urn), this.keys.id(entry.kind, entry.account, id), id),
      );
      return removed === 1;
    }
    const old = await this.getUnder(RELEASE_0_1_KEYS, urn);
    if (old?.id !== id) return false;
    await this.run((client) => client.del(RELEASE_0_1_KEYS.entry(urn)));
    await this.run((client) => client.del(RELEASE_0_1_KEYS.id(old.kind, old.account, id)));
    return true;
  }

  async removeById(kind: string, account: string, id: string): Promise<void> {
    for (const keys of [this.keys, RELEASE_0_1_KEYS]) {
      const urn = await this.run((client) => client.get(keys.id(kind, account, id)));
      if (urn !== null) await this.removeIfId(urn, id);
    }
  }

  /** The entry of `urn` under `keys`. */
  private async getUnder(keys: JournalKeys, urn: string): Promise<JournalEntry | undefined> {
    const value = await this.run((client) => client.get(keys.entry(urn)));
    if (value === null) return undefined;
    const stored = readStoredEntry(value);
    // A newer release's entry stays, and this release sends no create for its URN (storedEntry.ts).
    if ("newerFormat" in stored) throw new NewerJournalEntryError(urn, stored.newerFormat, this.where);
    return "entry" in stored && stored.entry.urn === urn ? stored.entry : undefined;
  }

  private run<T>(command: (client: ScriptedRedis) => Promise<T>): Promise<T> {
    return this.connection.run((client) => command(client as ScriptedRedis));
  }
}
