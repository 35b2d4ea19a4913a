/**
 * One connection per Redis URL per process, shared by the limiter's store and the create journal,
 * and one fallback with one warning for both when that Redis cannot be used. Against real
 * `redis-server` processes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Redis } from "ioredis";
import { setFallbackWarningSink } from "../../../provider/infrastructure/warnings";
import { sharedStoreFor } from "../../../provider/client/limiterRegistry";
import type { LimiterStore } from "../../../provider/client/limiterStores";
import { closeRedisConnections } from "../../../provider/infrastructure/redis";
import { JournalEntry, journalStoreFor } from "../../../provider/journal";
import { freePort, startRedisServer } from "../../helpers/redisServer";
import { ENTRY_URN, answeredEntry } from "../../helpers/sampleJournalEntry";

jest.setTimeout(60_000);

let warnings: string[] = [];
let previousSink: (message: string) => void;
let journalDir: string;
let accounts = 0;
const freshKey = () => `shared-redis-account-${process.pid}-${++accounts}`;
const entry = (): JournalEntry => answeredEntry({ sentAt: Date.now() });
/** One limiter decision on `store`, for a fresh account. */
const touch = (store: LimiterStore) =>
  Promise.resolve(
    store.update(
      freshKey(),
      (state) => state ?? { classes: {}, tickets: {}, cap: { value: 4, ceiling: null, loweredAt: null, good: 0 }, guard: 10 },
    ),
  );

beforeEach(() => {
  warnings = [];
  previousSink = setFallbackWarningSink((message) => warnings.push(message));
  journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "adp-shared-redis-"));
});

afterEach(() => {
  setFallbackWarningSink(previousSink);
  closeRedisConnections();
  fs.rmSync(journalDir, { recursive: true, force: true });
});

it("serves the limiter's store and the journal of one URL over one client connection", async () => {
  const server = await startRedisServer({ password: "one-socket" });
  const observer = new Redis(server.url, { connectionName: "observer" });
  try {
    const limits = sharedStoreFor(server.url);
    const journal = journalStoreFor({ journalDir, limitsUrl: server.url });
    await touch(limits);
    await journal.put(entry());
    await touch(sharedStoreFor(server.url));
    expect(await journal.get(ENTRY_URN)).toMatchObject({ id: "100001" });

    const clients = ((await observer.client("LIST")) as string).trim().split("\n");
    const ours = clients.filter((line) => !/\bname=observer\b/.test(line));
    expect(ours).toHaveLength(1);
    expect(warnings).toEqual([]);
  } finally {
    observer.disconnect();
    await server.stop();
  }
});

it("falls back for both, with one warning, when the Redis cannot be reached", async () => {
  const url = `redis://:unreached-pw@127.0.0.1:${await freePort()}`;
  const limits = sharedStoreFor(url);
  const journal = journalStoreFor({ journalDir, limitsUrl: url });
  await touch(limits);
  await journal.put(entry());
  expect(journal.where).toBe(journalDir);
  expect(await journal.get(ENTRY_URN)).toMatchObject({ id: "100001" });
  await touch(sharedStoreFor(url));

  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/the Redis at redis:\/\/127\.0\.0\.1:\d+ \(ADPLATFORM_LIMITS_URL \/ adplatform:limitsUrl\) is not used/);
  expect(warnings[0]).toContain("Rate limits are shared with this machine's processes only");
  expect(warnings[0]).toContain("creates are journaled in this machine's journal directory");
  expect(warnings[0]).not.toContain("unreached-pw");
});
