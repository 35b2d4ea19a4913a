/**
 * A shared limiter state that a broken or hostile writer planted, in the machine's state file and
 * in a real `redis-server` (tests/helpers/redisServer.ts): window ends in 1e300, windows spent a
 * billion times over, a ticket that never expires, a cap of zero lowered in the future. Every
 * process of the account must still send within a bounded time (a window or so), never hang or spin.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Permit, RateLimiter } from "../../../provider/limiter";
import { accountKey } from "../../../provider/client/accountKey";
import { epochClock } from "../../../provider/infrastructure/clock";
import type { LimiterState } from "../../../provider/limiter/limiterState";
import { FileLimiterStore, sharedStateName } from "../../../provider/limiter/limiterStores";
import { RedisLimiterStore, redisStateKey } from "../../../provider/limiter/redisLimiterStore";
import { FakeClock, flush } from "../../helpers/fakeClock";
import { useRedisServer } from "../../helpers/redisServer";
import { waitFor } from "../../helpers/waitFor";

const FAR = 1e300;
const window = (limit: number) => ({
  opened: 0,
  endsAfter: FAR,
  endsBy: FAR,
  heard: true,
  spent: 1e9,
  own: 1e9,
  carry: 1e9,
  carryUntil: FAR,
  limit,
});
const cap = { value: 8, ceiling: null, loweredAt: null, good: 0 };

/** The states a writer may plant, by what they would hold. */
const PLANTED: readonly [string, LimiterState][] = [
  ["full windows ending in 1e300", { classes: { C: { burst: window(10), steady: window(150) } }, tickets: {}, cap }],
  [
    "tickets that never expire filling a cap lowered in the future",
    {
      classes: {},
      tickets: Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [
          `elsewhere/1/1#${i}`,
          { cls: "C", cost: 1, at: FAR, exp: FAR, burst: FAR, steady: FAR, live: 8 },
        ]),
      ),
      cap: { value: 0, ceiling: 0, loweredAt: FAR, good: 0 },
    },
  ],
];

describe("a planted state file", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "adplatform-planted-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // The first window it holds full, and the next one with what it says was carried into it.
  it.each(PLANTED)("with %s delays a call by two steady windows and their guards at most", async (_name, planted) => {
    const store = new FileLimiterStore(dir);
    writeFileSync(store.pathOf("account"), JSON.stringify(planted));
    const clock = new FakeClock(1_000);
    const limiter = new RateLimiter({ clock, sharedStore: store });
    const admitted: Permit[] = [];
    void limiter.acquire({ rateClass: "C", cost: 1 }).then((permit) => admitted.push(permit));
    await flush();
    for (const w of Object.values(limiter.snapshot().windows.C ?? {})) expect(w.endsInMs).toBeLessThanOrEqual(61_000);
    await clock.advance(2 * 61_000);
    expect(admitted).toHaveLength(1);
  });
});

describe("a planted Redis state", () => {
  const redis = useRedisServer();
  let accounts = 0;

  it.each(PLANTED)("with %s lets a call through within a window or so", async (_name, planted) => {
    const name = sharedStateName(accountKey("http://127.0.0.1:1", `planted-${++accounts}`));
    await redis.raw.hset(redisStateKey(name), "v", "planted", "s", JSON.stringify(planted));
    // Windows scaled down: the planted times are far beyond any scale.
    const limiter = new RateLimiter({
      clock: epochClock,
      burstWindowMs: 20,
      steadyWindowMs: 200,
      sharedStore: new RedisLimiterStore(redis.server.url),
      stateName: name,
    });
    let admitted = false;
    const permit = limiter.acquire({ rateClass: "C", cost: 1 }).then((p) => {
      admitted = true;
      return p;
    });
    await waitFor(() => admitted);
    (await permit).release();
    await limiter.flush();
    const written = JSON.parse((await redis.raw.hget(redisStateKey(name), "s"))!) as LimiterState;
    for (const w of Object.values(written.classes.C ?? {})) expect(w.endsBy).toBeLessThan(FAR);
    for (const ticket of Object.values(written.tickets)) expect(ticket.exp).toBeLessThan(FAR);
  });
});
