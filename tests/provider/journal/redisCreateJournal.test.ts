/**
 * The create journal in Redis (`provider/journal/redisCreateJournal.ts`) against a real
 * `redis-server`, its fallback to the directory (`journalStore.ts`), and the case it exists for,
 * through the real plugin: a create journaled on one machine is taken over by the next run on
 * another (two plugin processes with different journal directories sharing one Redis).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { accountKey } from "../../../provider/client/accountKey";
import { sharedStateName } from "../../../provider/client/limiterStores";
import {
  CreateJournal,
  journalOnLadder,
  type JournalStore,
  JOURNAL_ENTRY_TTL_MS,
  REDIS_JOURNAL_PREFIX,
  RedisCreateJournal,
  directoryStore,
  journalStoreFor,
  type JournalEntry,
} from "../../../provider/journal";
import { FallbackLadder } from "../../../provider/infrastructure/fallbackLadder";
import { closeRedisConnections, redactRedisUrl } from "../../../provider/infrastructure/redis";
import { setFallbackWarningSink } from "../../../provider/infrastructure/warnings";
import { type RedisServer, freePort, startRedisServer } from "../../helpers/redisServer";
import { RECOGNISABLE_TOKEN, secretValue, startLifecycleEnv, type LifecycleEnv } from "../../helpers/lifecycleEnv";
import { cleanEnv } from "../../helpers/dynamicProviderHarness";
import { ENTRY_URN, answeredEntry } from "../../helpers/sampleJournalEntry";

jest.setTimeout(120_000);

let server: RedisServer;
let dir: string;
beforeAll(async () => {
  server = await startRedisServer({ password: "pw-journal" });
});
afterAll(async () => {
  closeRedisConnections();
  await server.stop();
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "adp-redis-journal-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The account's name in the stores (`sharedStateName`), which tags its keys. */
const ACCOUNT = "0123456789abcdef0123456789abcdef";
const ACCOUNT_KEYS = `adplatform:{${ACCOUNT}}:journal:*`;

// Sent now: Redis keeps an entry for its time to live after it was sent.
const entry = (over: Partial<JournalEntry> = {}): JournalEntry => answeredEntry({ sentAt: Date.now(), ...over });

it("keeps entries by URN, removes them by URN and id or by kind, account and id, and lets them expire", async () => {
  const journal = new RedisCreateJournal(server.url, ACCOUNT);
  expect(journal.where).not.toContain("pw-journal");
  await journal.put(entry({ state: "sent", id: undefined }));
  expect(await journal.get(ENTRY_URN)).toMatchObject({ state: "sent" });
  await journal.put(entry());
  expect(await journal.get(ENTRY_URN)).toEqual(entry({ sentAt: (await journal.get(ENTRY_URN))!.sentAt }));

  const raw = new Redis(server.url);
  try {
    const keys = await raw.keys(ACCOUNT_KEYS);
    expect(keys).toHaveLength(2); // the entry and its id index
    for (const key of keys) {
      const ttl = await raw.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(JOURNAL_ENTRY_TTL_MS);
    }
    expect(await journal.removeIfId(ENTRY_URN, "100009")).toBe(false);
    expect(await journal.removeIfId(ENTRY_URN, "100001")).toBe(true);
    expect(await raw.keys(ACCOUNT_KEYS)).toEqual([]);

    await journal.put(entry());
    await journal.removeById("CampaignGroup", "acct", "100001");
    expect(await journal.get(ENTRY_URN)).toBeDefined();
    await journal.removeById("BidStrategy", "acct", "100001");
    expect(await journal.get(ENTRY_URN)).toBeUndefined();
    expect(await raw.keys(ACCOUNT_KEYS)).toEqual([]);
  } finally {
    raw.disconnect();
  }
});

it("falls back to the directory when Redis cannot be reached, and says so once, without the password", async () => {
  const port = await freePort();
  const warnings: string[] = [];
  const previous = setFallbackWarningSink((message) => warnings.push(message));
  try {
    const url = `redis://:secret-pw@127.0.0.1:${port}`;
    const store = journalOnLadder(
      new FallbackLadder<JournalStore>([
        { make: () => new RedisCreateJournal(url, ACCOUNT) },
        { make: () => directoryStore(new CreateJournal(dir)) },
      ]),
    );
    await store.put(entry());
    expect(new CreateJournal(dir).get(ENTRY_URN)).toEqual(entry({ sentAt: new CreateJournal(dir).get(ENTRY_URN)!.sentAt }));
    expect(await store.get(ENTRY_URN)).toMatchObject({ id: "100001" });
    expect(store.where).toBe(dir);
    expect(warnings).toEqual([expect.stringContaining(`the Redis at redis://127.0.0.1:${port} (ADPLATFORM_LIMITS_URL`)]);
    expect(warnings[0]).toContain("creates are journaled in this machine's journal directory");
    expect(warnings[0]).not.toContain("secret-pw");
  } finally {
    setFallbackWarningSink(previous);
  }
});

it("finds, and removes, an entry release 0.1.0 wrote under its key layout", async () => {
  // 0.1.0's keys: the prefix and 40 hex digits of the URN's hash; the id key of kind, account and id.
  const sha = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 40);
  const oldEntryKey = `${REDIS_JOURNAL_PREFIX}${sha(ENTRY_URN)}`;
  const oldIdKey = `${REDIS_JOURNAL_PREFIX}id:${sha("BidStrategy\u0000acct\u0000100001")}`;
  const raw = new Redis(server.url);
  const plant = () => raw.multi().set(oldEntryKey, JSON.stringify(entry()), "PX", 60_000).set(oldIdKey, ENTRY_URN, "PX", 60_000).exec();
  try {
    const journal = new RedisCreateJournal(server.url, ACCOUNT);
    await plant();
    expect(await journal.get(ENTRY_URN)).toMatchObject({ state: "answered", id: "100001" });
    expect(await journal.removeIfId(ENTRY_URN, "100001")).toBe(true);
    expect(await raw.exists(oldEntryKey, oldIdKey)).toBe(0);
    await plant();
    await journal.removeById("BidStrategy", "acct", "100001");
    expect(await raw.exists(oldEntryKey, oldIdKey)).toBe(0);
    await plant();
    await journal.remove(ENTRY_URN);
    expect(await raw.exists(oldEntryKey, oldIdKey)).toBe(0);
    // This release writes only its own layout, and its own entry comes first.
    await plant();
    await journal.put(entry({ id: "100002" }));
    expect(await journal.get(ENTRY_URN)).toMatchObject({ id: "100002" });
    expect(await raw.get(oldEntryKey)).toBe(JSON.stringify(entry({ sentAt: JSON.parse((await raw.get(oldEntryKey))!).sentAt })));
    await journal.remove(ENTRY_URN);
    expect(await raw.keys("adplatform:*")).toEqual([]);
  } finally {
    raw.disconnect();
  }
});

it("with Redis in use, finds and settles the entries journaled in the machine's directory while it was away", async () => {
  const settings = { journalDir: dir, limitsUrl: server.url, baseUrl: "http://127.0.0.1:9", token: "journal-token" };
  // A create journaled in the directory while Redis was away, and killed before the engine recorded it.
  new CreateJournal(dir).put(entry());
  const journal = journalStoreFor(settings);
  expect(journal.where).toBe(redactRedisUrl(server.url));
  expect(await journal.get(ENTRY_URN)).toMatchObject({ id: "100001" });
  // The engine names the id: the entry goes from the directory too, so nothing is left to take over later.
  expect(await journalStoreFor(settings).removeIfId(ENTRY_URN, "100001")).toBe(true);
  expect(new CreateJournal(dir).entries()).toEqual([]);
  // New entries go to Redis only, under the account's hash tag, the limiter's.
  await journalStoreFor(settings).put(entry({ id: "100003" }));
  expect(new CreateJournal(dir).entries()).toEqual([]);
  const account = sharedStateName(accountKey("http://127.0.0.1:9", "journal-token"));
  expect(await new RedisCreateJournal(server.url, account).get(ENTRY_URN)).toMatchObject({ id: "100003" });
  await journalStoreFor(settings).remove(ENTRY_URN);
});

describe("through the plugin, on two machines sharing one Redis", () => {
  let env: LifecycleEnv;
  beforeAll(async () => {
    env = await startLifecycleEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  /** A plugin of "another machine": its own journal directory, the shared limits URL. */
  async function machine(name: string) {
    const journalDir = path.join(dir, name);
    const plugin = await env.startPlugin(cleanEnv({ ADPLATFORM_JOURNAL_DIR: journalDir }));
    await plugin.configure({
      "adplatform:baseUrl": env.sim.url,
      "adplatform:token": secretValue(RECOGNISABLE_TOKEN),
      "adplatform:limitsUrl": server.url,
    });
    return { plugin, journalDir };
  }

  it("takes over on machine B the object a killed run created on machine A, without a POST", async () => {
    const urn = "urn:pulumi:ci::p::pulumi-nodejs:dynamic/adplatform:BidStrategy::shared";
    const a = await machine("a");
    const b = await machine("b");
    const news = env.inputs("BidStrategy", { name: "Shared", strategy: "exact", value: 1, maxValue: 2, __adplatformUrn: urn });
    const { inputs } = await a.plugin.check(urn, {}, news);
    const first = await a.plugin.create(urn, inputs);
    // Machine A's run was killed before the engine recorded it; the next run is on machine B.
    const again = await b.plugin.create(urn, inputs);
    expect(again.id).toBe(first.id);
    expect(env.calls(3)).toHaveLength(1);
    expect(env.engine.warnings()).toEqual([expect.stringContaining(`took over bid strategy ${first.id}`)]);
    // Nothing went to either machine's directory: the entry lived in Redis.
    expect(fs.existsSync(a.journalDir) ? new CreateJournal(a.journalDir).entries() : []).toEqual([]);
    expect(fs.existsSync(b.journalDir) ? new CreateJournal(b.journalDir).entries() : []).toEqual([]);
  });
});
