/**
 * Journal entries of another release (`provider/resources/journal/store/storedEntry.ts`): during a rollout, processes
 * of two releases share one journal directory or one Redis. An entry written by a newer release (a
 * build whose `JOURNAL_FORMAT` is bumped; here written as that build writes it) is never read as
 * this release's, never removed or overwritten, and no create is sent for its URN: the create fails
 * once, saying which release to finish with. Unreadable junk is still cleared.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Redis } from "ioredis";
import { resolveSettings, valuesLayer } from "../../../../../provider/configuration/settings";
import {
  CreateJournal,
  JOURNAL_FORMAT,
  REDIS_JOURNAL_PREFIX,
  RedisCreateJournal,
  journalOnLadder,
  entryFileName,
  type JournalEntry,
  type JournalStore,
} from "../../../../../provider/resources/journal/store";
import { readStoredEntry } from "../../../../../provider/resources/journal/store/storedEntry";
import { FallbackLadder } from "../../../../../provider/infrastructure/fallbackLadder";
import { closeRedisConnections } from "../../../../../provider/infrastructure/redis";
import type { LifecycleContext } from "../../../../../provider/resources/lifecycle/context";
import { CreateSession, journaledCreate } from "../../../../../provider/resources/journal";
import { type RedisServer, startRedisServer } from "../../../../helpers/redisServer";
import { ENTRY_URN, answeredEntry } from "../../../../helpers/sampleJournalEntry";
import { strategyCreate } from "../../../../helpers/strategyCreate";

/** What a journal holding a newer release's entry refuses with. */
const NEWER_ENTRY = expect.objectContaining({ code: "ADP_ERR_JOURNAL_NEWER_ENTRY" });

jest.setTimeout(120_000);

/** The entry as a build with the next journal format writes it. */
const NEXT = JOURNAL_FORMAT + 1;
const newerEntry = (over: Partial<JournalEntry> = {}) => ({
  ...answeredEntry({ sentAt: Date.now(), ...over }),
  format: NEXT,
  renamedField: "x",
});

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "adp-stored-entry-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("readStoredEntry", () => {
  it("tells an entry of this format, a newer format, and junk apart", () => {
    expect(readStoredEntry(JSON.stringify(answeredEntry()))).toEqual({ entry: answeredEntry() });
    expect(readStoredEntry(JSON.stringify(newerEntry()))).toEqual({ newerFormat: NEXT });
    expect(readStoredEntry(JSON.stringify({ ...answeredEntry(), format: 10 }))).toEqual({ newerFormat: 10 });
    expect(readStoredEntry("not json")).toEqual({ unreadable: true });
    expect(readStoredEntry(JSON.stringify({ ...answeredEntry(), state: "maybe" }))).toEqual({ unreadable: true });
    expect(readStoredEntry("null")).toEqual({ unreadable: true });
  });
});

describe("the directory journal", () => {
  it("refuses to answer for a newer release's entry and leaves it, through every operation", () => {
    const journal = new CreateJournal(path.join(dir, "journal"));
    journal.put(answeredEntry({ urn: `${ENTRY_URN}-own`, sentAt: 0 }));
    const file = path.join(journal.dir, entryFileName(ENTRY_URN));
    const text = JSON.stringify(newerEntry({ sentAt: 0 }));
    fs.writeFileSync(file, text, { mode: 0o600 });

    expect(() => journal.get(ENTRY_URN)).toThrow(NEWER_ENTRY);
    expect(() => journal.get(ENTRY_URN)).toThrow(`journal format ${NEXT}; this release reads format ${JOURNAL_FORMAT}`);
    expect(() => journal.removeIfId(ENTRY_URN, "100001")).toThrow(NEWER_ENTRY);
    journal.removeById("BidStrategy", "acct", "100001");
    journal.sweep(Date.now()); // long past both entries' time to live
    expect(journal.entries()).toEqual([]); // this release's old entry swept; the newer one not listed
    expect(fs.readFileSync(file, "utf8")).toBe(text);
  });

  it("still clears a file that is no entry of any format", () => {
    const journal = new CreateJournal(path.join(dir, "journal"));
    journal.put(answeredEntry());
    const file = path.join(journal.dir, entryFileName(ENTRY_URN));
    fs.writeFileSync(file, '{"format": 1, "urn": 3}');
    expect(journal.get(ENTRY_URN)).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe("one Redis shared by this release and a newer one", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    closeRedisConnections();
    await server?.stop();
  });

  it("leaves the newer entry in Redis, and neither answers for it nor falls back to the directory", async () => {
    const written = newerEntry();
    // What the newer build's put writes (it shares the key layout; only the format moved on).
    await new RedisCreateJournal(server.url).put(written as unknown as JournalEntry);
    const raw = new Redis(server.url);
    try {
      const before = await raw.keys(`${REDIS_JOURNAL_PREFIX}*`);
      const values = async () => Promise.all(before.sort().map((key) => raw.get(key)));
      const stored = await values();

      const fallback = new CreateJournal(path.join(dir, "fallback"));
      const store = journalOnLadder(
        new FallbackLadder<JournalStore>([{ make: () => new RedisCreateJournal(server.url) }, { make: () => fallback }]),
      );
      await expect(store.get(ENTRY_URN)).rejects.toThrow(NEWER_ENTRY);
      await expect(store.removeIfId(ENTRY_URN, "100001")).rejects.toThrow(NEWER_ENTRY);
      await expect(store.removeById("BidStrategy", "acct", "100001")).rejects.toThrow(NEWER_ENTRY);
      expect(store.where).toBe(new RedisCreateJournal(server.url).where); // still Redis: no fallback
      expect((await raw.keys(`${REDIS_JOURNAL_PREFIX}*`)).sort()).toEqual(before.sort());
      expect(await values()).toEqual(stored);
      expect(fs.existsSync(fallback.dir)).toBe(false);
    } finally {
      raw.disconnect();
    }
  });
});

describe("the create protocol", () => {
  it("sends no create for a URN a newer release journaled, fails it once with what to do, and keeps the entry", async () => {
    const journalDir = path.join(dir, "protocol");
    const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/adplatform:BidStrategy::night";
    const journal = new CreateJournal(journalDir);
    journal.put(answeredEntry({ urn: `${urn}-other` })); // makes the directory, private
    const file = path.join(journalDir, entryFileName(urn));
    const text = JSON.stringify(newerEntry({ urn }));
    fs.writeFileSync(file, text, { mode: 0o600 });

    const warnings: string[] = [];
    const ctx: LifecycleContext = {
      warn: async (message) => void warnings.push(message),
      info: async () => undefined,
      settings: resolveSettings([valuesLayer("explicit", { baseUrl: "http://127.0.0.1:9", token: "stored-entry-test-token", journalDir })]),
      urn,
      createSession: new CreateSession(),
    };
    const strategy = strategyCreate("100009");
    const create = journaledCreate(ctx, strategy.spec);
    await expect(create).rejects.toThrow(
      /newer release of pulumi-adplatform .* Nothing was sent and the entry is left as it is: run this update with that newer release/,
    );
    expect(strategy.posts()).toBe(0);
    expect(warnings).toEqual([]);
    expect(fs.readFileSync(file, "utf8")).toBe(text);
  });
});
