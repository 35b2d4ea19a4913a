/**
 * The create journal in Redis (`provider/resources/journal/store/redisCreateJournal.ts`) against a real
 * `redis-server`, its fallback to the directory (`journalStore.ts`), and the case it exists for,
 * through the real plugin: a create journaled on one machine is taken over by the next run on
 * another (two plugin processes with different journal directories sharing one Redis).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Redis } from "ioredis";
import {
  CreateJournal,
  journalOnLadder,
  type JournalStore,
  JOURNAL_ENTRY_TTL_MS,
  REDIS_JOURNAL_PREFIX,
  RedisCreateJournal,
  journalStoreFor,
  type JournalEntry,
} from "../../../../../provider/resources/journal/store";
import { FallbackLadder } from "../../../../../provider/infrastructure/fallbackLadder";
import { closeRedisConnections, redactRedisUrl } from "../../../../../provider/infrastructure/redis";
import { setFallbackWarningSink } from "../../../../../provider/infrastructure/warnings";
import { type RedisServer, freePort, startRedisServer } from "../../../../helpers/redisServer";
import { RECOGNISABLE_TOKEN, secretValue, startLifecycleEnv, type LifecycleEnv } from "../../../../helpers/lifecycleEnv";
import { cleanEnv } from "../../../../helpers/dynamicProviderHarness";
import { ENTRY_URN, answeredEntry } from "../../../../helpers/sampleJournalEntry";

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

// Sent now: Redis keeps an entry for its time to live after it was sent.
const entry = (over: Partial<JournalEntry> = {}): JournalEntry => answeredEntry({ sentAt: Date.now(), ...over });

it("keeps entries by URN, removes them by URN and id or by kind, account and id, and lets them expire", async () => {
  const journal = new RedisCreateJournal(server.url);
  expect(journal.where).not.toContain("pw-journal");
  await journal.put(entry({ state: "sent", id: undefined }));
  expect(await journal.get(ENTRY_URN)).toMatchObject({ state: "sent" });
  await journal.put(entry());
  expect(await journal.get(ENTRY_URN)).toEqual(entry({ sentAt: (await journal.get(ENTRY_URN))!.sentAt }));

  const raw = new Redis(server.url);
  try {
    const keys = await raw.keys(`${REDIS_JOURNAL_PREFIX}*`);
    expect(keys).toHaveLength(2); // the entry and its id index
    for (const key of keys) {
      const ttl = await raw.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(JOURNAL_ENTRY_TTL_MS);
    }
    expect(await journal.removeIfId(ENTRY_URN, "100009")).toBe(false);
    expect(await journal.removeIfId(ENTRY_URN, "100001")).toBe(true);
    expect(await raw.keys(`${REDIS_JOURNAL_PREFIX}*`)).toEqual([]);

    await journal.put(entry());
    await journal.removeById("CampaignGroup", "acct", "100001");
    expect(await journal.get(ENTRY_URN)).toBeDefined();
    await journal.removeById("BidStrategy", "acct", "100001");
    expect(await journal.get(ENTRY_URN)).toBeUndefined();
    expect(await raw.keys(`${REDIS_JOURNAL_PREFIX}*`)).toEqual([]);
  } finally {
    raw.disconnect();
  }
});

it("keeps an ambiguous record without expiry and lists it, until it is removed", async () => {
  const journal = new RedisCreateJournal(server.url);
  const record = entry({ state: "ambiguous", id: undefined, name: "Night bids", failure: "the connection closed" });
  await journal.put(record);
  const raw = new Redis(server.url);
  try {
    const keys = (await raw.keys(`${REDIS_JOURNAL_PREFIX}*`)).sort();
    expect(keys).toEqual([expect.stringMatching(/^adplatform:journal:[0-9a-f]{40}$/), `${REDIS_JOURNAL_PREFIX}ambiguous`]);
    for (const key of keys) expect(await raw.pttl(key)).toBe(-1);
    expect(await journal.ambiguous()).toEqual([record]);
    await journal.remove(ENTRY_URN);
    expect(await journal.ambiguous()).toEqual([]);
    expect(await raw.keys(`${REDIS_JOURNAL_PREFIX}*`)).toEqual([]);
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
      new FallbackLadder<JournalStore>([{ make: () => new RedisCreateJournal(url) }, { make: () => new CreateJournal(dir) }]),
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

it("with Redis in use, finds and settles the entries journaled in the machine's directory while it was away", async () => {
  const settings = { journalDir: dir, limitsUrl: server.url };
  // A create journaled in the directory while Redis was away, and killed before the engine recorded it.
  new CreateJournal(dir).put(entry());
  const journal = journalStoreFor(settings);
  expect(journal.where).toBe(redactRedisUrl(server.url));
  expect(await journal.get(ENTRY_URN)).toMatchObject({ id: "100001" });
  // The engine names the id: the entry goes from the directory too, so nothing is left to take over later.
  expect(await journalStoreFor(settings).removeIfId(ENTRY_URN, "100001")).toBe(true);
  expect(new CreateJournal(dir).entries()).toEqual([]);
  // New entries go to Redis only.
  await journalStoreFor(settings).put(entry({ id: "100003" }));
  expect(new CreateJournal(dir).entries()).toEqual([]);
  expect(await new RedisCreateJournal(server.url).get(ENTRY_URN)).toMatchObject({ id: "100003" });
  await journalStoreFor(settings).remove(ENTRY_URN);
});

it("an index left without its entry, or pointing at an entry of another id, removes nothing", async () => {
  const journal = new RedisCreateJournal(server.url);
  await journal.put(entry());
  await journal.put(entry({ id: "100002" })); // the URN's entry now records another object
  await journal.removeById("BidStrategy", "acct", "100001");
  expect(await journal.get(ENTRY_URN)).toMatchObject({ id: "100002" });
  await journal.removeById("BidStrategy", "acct", "100002");
  expect(await journal.get(ENTRY_URN)).toBeUndefined();
  await journal.remove(ENTRY_URN);
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
