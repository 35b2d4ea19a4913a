/**
 * One connection per Redis URL per process, shared by the limiter's store and the create journal,
 * and one fallback with one warning for both when that Redis cannot be used. Against real
 * `redis-server` processes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Redis } from "ioredis";
import { setFallbackWarningSink, type WarningSink } from "../../../provider/infrastructure/warnings";
import { epochClock } from "../../../provider/infrastructure/clock";
import { RateLimiter } from "../../../provider/limiter/limiter";
import { sharedStoreFor } from "../../../provider/limiter/limiterRegistry";
import type { LimiterState } from "../../../provider/limiter/limiterState";
import type { LimiterStore } from "../../../provider/limiter/limiterStores";
import { redisStateKey } from "../../../provider/limiter/redisLimiterStore";
import { closeRedisConnections, PROBE_EVERY_MS, sharedRedis } from "../../../provider/infrastructure/redis";
import { JournalEntry, journalStoreFor } from "../../../provider/resources/journal/store";
import { freePort, startRedisServer } from "../../helpers/redisServer";
import { waitFor } from "../../helpers/waitFor";
import { FakeClock } from "../../helpers/fakeClock";
import { ENTRY_URN, answeredEntry } from "../../helpers/sampleJournalEntry";

jest.setTimeout(60_000);

let warnings: string[] = [];
let infos: string[] = [];
let previousSink: WarningSink;
let journalDir: string;
let accounts = 0;
const freshKey = () => `shared-redis-account-${process.pid}-${++accounts}`;
const entry = (): JournalEntry => answeredEntry({ sentAt: Date.now() });
/** One limiter decision on `store`, for a fresh account. */
const touch = (store: LimiterStore, key = freshKey()) => Promise.resolve(store.update(key, (state) => state ?? emptyState(10)));
const emptyState = (mark: number): LimiterState => ({
  classes: {},
  tickets: {},
  cap: { value: 4, ceiling: null, loweredAt: null, good: mark },
});

beforeEach(() => {
  warnings = [];
  infos = [];
  previousSink = setFallbackWarningSink((message, severity) => (severity === "info" ? infos : warnings).push(message));
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

it("goes back to Redis when it answers again: re-reads the shared state, one warning when it left, one line when it is back", async () => {
  const password = "blip-pw";
  const server = await startRedisServer({ password });
  const raw = () => new Redis(server.url);
  let restarted: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  try {
    const store = sharedStoreFor(server.url);
    const name = freshKey();
    const seen: (number | undefined)[] = [];
    // Each decision records the mark (the cap's count) of the state it was handed, and writes the next one.
    const decide = (mark: number) => Promise.resolve(store.update(name, (state) => (seen.push(state?.cap.good), emptyState(mark))));
    await decide(11);
    await server.stop();
    // Redis is gone: the decision is taken again on the machine's file, which has no state yet:
    // handed what this process last decided on Redis.
    await decide(12);
    await decide(13);
    expect(seen.slice(-2)).toEqual([11, 12]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("shares through that Redis again once it answers");

    // Back on the same port, with a state another machine wrote meanwhile.
    restarted = await startRedisServer({ password, port: server.port });
    const other = raw();
    await other.hset(redisStateKey(name), "v", "other-machine", "s", JSON.stringify(emptyState(20)));
    other.disconnect();
    // A probe goes out at most once a second, and only while the store is used.
    await waitFor(
      async () => {
        await decide(14);
        return seen.includes(20);
      },
      10 * (PROBE_EVERY_MS / 5),
    );
    // Back in Redis: the decision was handed the shared state as it is there, not the file's.
    expect(seen.filter((mark) => mark === 20)).toHaveLength(1);
    expect(infos).toEqual([expect.stringMatching(/the Redis at redis:\/\/127\.0\.0\.1:\d+ .* answers again/)]);
    expect(warnings).toHaveLength(1);
    for (const line of [...warnings, ...infos]) expect(line).not.toContain(password);
    const check = raw();
    expect(JSON.parse((await check.hget(redisStateKey(name), "s"))!).cap.good).toBe(14);
    check.disconnect();
  } finally {
    await server.stop();
    await restarted?.stop();
  }
});

it("a window known full while Redis was away stays full when Redis comes back empty", async () => {
  const password = "empty-pw";
  const server = await startRedisServer({ password });
  let restarted: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  try {
    const store = sharedStoreFor(server.url);
    const name = freshKey();
    const clock = new FakeClock(Date.now());
    const limiter = new RateLimiter({ sharedStore: store, stateName: name, clock });
    const first = await limiter.acquire({ rateClass: "C", cost: 1 });
    await server.stop();
    // While Redis is away: the platform refuses, the steady window full for 30 s more.
    limiter.observe(first, { status: 429, retryAfter: { kind: "delay", ms: 30_000 } }, { release: true });
    await limiter.flush();
    restarted = await startRedisServer({ password, port: server.port });
    await waitFor(
      async () => {
        await touch(store);
        return infos.length > 0;
      },
      10 * (PROBE_EVERY_MS / 5),
    );
    // Back on a Redis that knows nothing: the next request still waits for the window's end.
    let granted = false;
    const next = limiter.acquire({ rateClass: "C", cost: 1 }).then((permit) => ((granted = true), permit));
    await limiter.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(granted).toBe(false);
    await clock.advance(30_000 + 100);
    (await next).release();
    await limiter.flush();
    const check = new Redis(server.url);
    expect(await check.exists(redisStateKey(name))).toBe(1); // decided on Redis
    check.disconnect();
  } finally {
    await server.stop();
    await restarted?.stop();
  }
});

it("a permit released while Redis was away does not hold a slot in the cap once the limiter is back on Redis", async () => {
  const password = "held-pw";
  const raw = (url: string) => new Redis(url);
  const server = await startRedisServer({ password });
  let restarted: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  try {
    const store = sharedStoreFor(server.url);
    const name = freshKey();
    // One slot, and tickets that live far longer than this test may take: only the release frees the slot.
    const limiter = new RateLimiter({
      sharedStore: store,
      stateName: name,
      clock: epochClock,
      concurrency: { initial: 1, min: 1, max: 1 },
      steadyWindowMs: 6_000_000,
    });
    const first = await limiter.acquire({ rateClass: "C", cost: 1 });
    // What a replica promoted in a failover holds: the state as it was when the primary went.
    const before = raw(server.url);
    const kept = await before.hgetall(redisStateKey(name));
    before.disconnect();
    await server.stop();
    // Released while Redis is away: the release is decided on the machine's file, Redis keeps the ticket.
    first.release();
    await limiter.flush();
    expect(warnings).toHaveLength(1);

    restarted = await startRedisServer({ password, port: server.port });
    const promoted = raw(server.url);
    await promoted.hset(redisStateKey(name), kept);
    promoted.disconnect();
    await waitFor(
      async () => {
        await touch(store);
        return infos.length > 0;
      },
      10 * (PROBE_EVERY_MS / 5),
    );
    // Back on Redis, whose state still holds the first ticket: the limiter no longer holds it.
    const second = limiter.acquire({ rateClass: "C", cost: 1 });
    const waited = await Promise.race([
      second.then(() => "granted"),
      new Promise((resolve) => setTimeout(resolve, 20_000, "still waiting")),
    ]);
    expect(waited).toBe("granted");
    (await second).release();
    await limiter.flush();
  } finally {
    await server.stop();
    await restarted?.stop();
  }
});

it("a command that fails on a connection since replaced by a probe runs again on the current one, and the URL stays in use", async () => {
  const server = await startRedisServer({ password: "replaced-pw" });
  try {
    const connection = sharedRedis(server.url);
    await connection.run((client) => client.ping());
    let late!: () => void;
    const gate = new Promise<void>((resolve) => (late = resolve));
    let runs = 0;
    // The first run waits on the old connection past the probe, then fails as a dropped command does.
    const command = connection.run(async (client) => {
      runs += 1;
      if (runs > 1) return client.ping();
      await gate;
      throw new Error("Connection is closed.");
    });
    connection.giveUp(new Error("another command timed out"));
    await waitFor(() => connection.answers(), 10 * (PROBE_EVERY_MS / 5));
    late();
    await expect(command).resolves.toBe("PONG");
    expect(connection.answers()).toBe(true);
    expect({ warnings: warnings.length, infos: infos.length }).toEqual({ warnings: 1, infos: 1 });
  } finally {
    await server.stop();
  }
});
