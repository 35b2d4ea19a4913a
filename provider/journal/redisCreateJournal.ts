/**
 * The create journal in Redis (docs/ARCHITECTURE.md, "The create journal"): with a limits URL
 * (`adplatform:limitsUrl`, `ADPLATFORM_LIMITS_URL`) the entries live beside the shared limiter
 * state, so a CI run on another machine finds what a killed run on this one created.
 *
 * - Keys: `adplatform:journal:<hash of the URN>` (the entry, JSON) and, once answered,
 *   `adplatform:journal:id:<hash of kind, account and id>` (the URN's key), both expiring with the
 *   entry's time to live. Neither holds the token.
 * - Durable as the server is: an entry survives a crash of the server only with its persistence
 *   (`appendonly yes`, `appendfsync always` to match the directory journal's fsync).
 * - One connection per URL per process, unref'd while no command is pending, never reconnected: a
 *   failure rejects, and `FallbackJournalStore` turns to the directory journal.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { sanitizeCause } from "../client/redact";
import { openRedis, redactRedisUrl, redisUrlSecrets } from "../client/redisConnection";
import { JOURNAL_ENTRY_TTL_MS } from "./createJournal";
import { JournalEntry } from "./journalEntry";
import type { JournalStore } from "./journalStore";

/** Prefix of every key the journal writes. */
export const REDIS_JOURNAL_PREFIX = "adplatform:journal:";

const TIMEOUT_MS = 2_000; // 2 s: connect and each command, as the limiter's Redis store

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

const clients = new Map<string, ScriptedRedis>();

function clientFor(url: string): ScriptedRedis {
  let client = clients.get(url);
  if (!client) {
    const redis = openRedis(url, { connectTimeoutMs: TIMEOUT_MS, commandTimeoutMs: TIMEOUT_MS });
    // Failures arrive as rejected commands; without a listener ioredis would print them too.
    redis.on("error", () => undefined);
    redis.defineCommand("adplatformJournalRemoveIfId", { numberOfKeys: 2, lua: REMOVE_IF_ID });
    client = redis as ScriptedRedis;
    clients.set(url, client);
  }
  return client;
}

/** Closes every journal connection of this process (tests). */
export function closeRedisJournals(): void {
  for (const client of clients.values()) client.disconnect();
  clients.clear();
}

/** The journal at a Redis URL. */
export class RedisCreateJournal implements JournalStore {
  readonly where: string;
  private readonly secrets: readonly string[];
  private readonly client: ScriptedRedis;
  private pending = 0;

  constructor(url: string) {
    this.where = redactRedisUrl(url);
    this.secrets = redisUrlSecrets(url);
    this.client = clientFor(url);
  }

  async get(urn: string): Promise<JournalEntry | undefined> {
    const value = await this.run(() => this.client.get(entryKey(urn)));
    if (value === null) return undefined;
    try {
      const parsed = JournalEntry.safeParse(JSON.parse(value));
      return parsed.success && parsed.data.urn === urn ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async put(entry: JournalEntry): Promise<void> {
    const ttl = Math.max(1, Math.round(entry.sentAt + JOURNAL_ENTRY_TTL_MS - Date.now()));
    await this.run(async () => {
      const batch = this.client.multi().set(entryKey(entry.urn), JSON.stringify(entry), "PX", ttl);
      if (entry.id !== undefined) batch.set(idKey(entry.kind, entry.account, entry.id), entry.urn, "PX", ttl);
      const results = await batch.exec();
      const failed = results?.find(([error]) => error !== null);
      if (results === null || failed) throw failed?.[0] ?? new Error("the transaction was discarded");
    });
  }

  async remove(urn: string): Promise<void> {
    const entry = await this.get(urn);
    const keys = [entryKey(urn), ...(entry?.id !== undefined ? [idKey(entry.kind, entry.account, entry.id)] : [])];
    await this.run(() => this.client.del(...keys));
  }

  async removeIfId(urn: string, id: string): Promise<boolean> {
    const entry = await this.get(urn);
    if (entry?.id !== id) return false;
    const removed = await this.run(() => this.client.adplatformJournalRemoveIfId(entryKey(urn), idKey(entry.kind, entry.account, id), id));
    return removed === 1;
  }

  async removeById(kind: string, account: string, id: string): Promise<void> {
    const urn = await this.run(() => this.client.get(idKey(kind, account, id)));
    if (urn !== null) await this.removeIfId(urn, id);
  }

  /**
   * Runs `command` with the socket ref'd, so the process waits for its answer and no longer. A
   * failure's message, shown in the fallback notice, is scrubbed of the URL's credentials.
   */
  private async run<T>(command: () => Promise<T>): Promise<T> {
    this.pending += 1;
    this.client.stream?.ref();
    try {
      if (this.client.status === "wait") await this.client.connect();
      return await command();
    } catch (error) {
      // A copy with message and stack scrubbed, as the client keeps an undici cause.
      throw sanitizeCause(error, this.secrets);
    } finally {
      this.pending -= 1;
      if (this.pending === 0) this.client.stream?.unref();
    }
  }
}
