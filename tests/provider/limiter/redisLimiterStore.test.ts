/**
 * The Redis limiter store against a real `redis-server` (tests/helpers/redisServer.ts): limiters on
 * one Redis share one budget, the key is named by hash and expires, a commit that lost to another
 * process's is decided again, and a process using it exits by itself. The fallback ladder is in
 * `tests/provider/infrastructure/fallbackLadder.test.ts`.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { RATE_CLASSES } from "../../../provider/catalog/rateClasses";
import { accountKey } from "../../../provider/client/accountKey";
import { type Clock, epochClock, offsetClock } from "../../../provider/infrastructure/clock";
import { type Permit, RateLimiter } from "../../../provider/limiter/limiter";
import { type ModelConfig } from "../../../provider/limiter/limiterModel";
import { freshState, type LimiterState } from "../../../provider/limiter/limiterState";
import { sharedStateName } from "../../../provider/limiter/limiterStores";
import { REDIS_STATE_TTL_MS, RedisLimiterStore, redisStateKey, ServerTime } from "../../../provider/limiter/redisLimiterStore";
import { FakeClock } from "../../helpers/fakeClock";
import { useRedisServer } from "../../helpers/redisServer";
import { waitFor } from "../../helpers/waitFor";
import { REAL_WINDOWS } from "../../helpers/limiterConfig";

const BIN = join(__dirname, "..", "..", "..", "bin", "provider", "limiter");

const redis = useRedisServer();
const CONFIG: ModelConfig = REAL_WINDOWS;

let accounts = 0;
/** A fresh account name per test. */
const freshName = () => sharedStateName(accountKey("http://127.0.0.1:1", `token-${++accounts}`));

function limiterOn(store: RedisLimiterStore, name: string, options: { burst: number; cap: number; clock?: Clock }): RateLimiter {
  return new RateLimiter({
    clock: options.clock ?? epochClock,
    stateName: name,
    classes: { ...RATE_CLASSES, C: { burst: options.burst, steady: 100 } },
    concurrency: { initial: options.cap, min: 1, max: options.cap },
    sharedStore: store,
  });
}

describe("Redis limiter store", () => {
  it("two limiters on one Redis never admit more than a window's limit together", async () => {
    const name = freshName();
    // Two connections (a URL of its own each), as two processes would have.
    const a = limiterOn(new RedisLimiterStore(redis.server.url), name, { burst: 5, cap: 8 });
    const b = limiterOn(new RedisLimiterStore(`${redis.server.url}/0`), name, { burst: 5, cap: 8 });
    const admitted: Permit[] = [];
    for (let i = 0; i < 4; i += 1) {
      for (const limiter of [a, b]) {
        // Released at once (no answer: counted in the window it was admitted to).
        void limiter.acquire({ rateClass: "C", cost: 1 }).then((permit) => {
          admitted.push(permit);
          permit.release();
        });
      }
    }
    await waitFor(() => admitted.length === 8);
    // The releases' decisions land before the connections close.
    await Promise.all([a.flush(), b.flush()]);
    // Whatever the timing, no burst window (1 s from its first admission) held more than 5.
    const times = admitted.map((permit) => permit.admittedAt).sort((x, y) => x - y);
    const first = times[0]!;
    expect(times.filter((at) => at < first + 1_000)).toHaveLength(5);
    expect(JSON.parse((await redis.raw.hget(redisStateKey(name), "s"))!)).toHaveProperty("classes.C");
  });

  describe("machines whose clocks disagree (one 30 s ahead)", () => {
    const ahead = offsetClock(epochClock, () => 30_000);
    /**
     * Twelve requests, six from each limiter, released at once: when each was admitted, on this
     * process's epoch clock. The machine behind asks first and fills the window; then the one ahead asks
     * (the other way round, the one behind would see the window ahead's clock dated as not over).
     */
    async function admissions(clockOf: (store: RedisLimiterStore, machine: number) => Clock): Promise<number[]> {
      const name = freshName();
      const stores = [
        new RedisLimiterStore(redis.server.url, new ServerTime(epochClock)),
        new RedisLimiterStore(`${redis.server.url}/0`, new ServerTime(ahead)),
      ];
      const clocks = stores.map((store, machine) => clockOf(store, machine));
      const limiters = stores.map((store, machine) => limiterOn(store, name, { burst: 5, cap: 8, clock: clocks[machine] }));
      const admitted: number[] = [];
      for (const [machine, limiter] of limiters.entries()) {
        for (let i = 0; i < 6; i += 1) {
          void limiter.acquire({ rateClass: "C", cost: 1 }).then((permit) => {
            // When the decision admitted it, on this process's epoch clock (the limiter's clock read back).
            admitted.push(permit.admittedAt - (clocks[machine]!.now() - epochClock.now()));
            permit.release();
          });
        }
        await waitFor(() => admitted.length >= 5);
      }
      await waitFor(() => admitted.length === 12);
      await Promise.all(limiters.map((limiter) => limiter.flush()));
      return admitted.sort((x, y) => x - y);
    }
    /** The most admitted within one burst window (1 s) of the first. */
    const firstWindow = (times: number[]) => times.filter((at) => at < times[0]! + 1_000).length;

    it("each reads the Redis server's time, whatever its own clock says", async () => {
      const [seconds, microseconds] = (await redis.raw.time()).map(Number) as [number, number];
      const store = new RedisLimiterStore(redis.server.url, new ServerTime(ahead));
      await store.update(freshName(), () => freshState(CONFIG));
      expect(Math.abs(store.clock.now() - (seconds * 1000 + microseconds / 1000))).toBeLessThan(500);
    });

    it("on the server's time, admit a window's limit together", async () => {
      expect(firstWindow(await admissions((store) => store.clock))).toBe(5);
    });

    it("on their own clocks, admit more (the window the one behind dated has ended for the one ahead)", async () => {
      expect(firstWindow(await admissions((_, machine) => (machine === 0 ? epochClock : ahead)))).toBeGreaterThan(5);
    });
  });

  it("keeps the offset of the quickest recent trip: a trip slowed by a failover moves the clock by nothing", async () => {
    const base = new FakeClock(0);
    const time = new ServerTime(base);
    const server = (ms: number) => [String(Math.floor(ms / 1000)), String((ms % 1000) * 1000)] as const;
    /** A trip of `tripMs` on `base`, which the server answers at `serverAt` (its TIME). */
    const trip = (tripMs: number, serverAt: () => number) =>
      time.measure(async () => {
        const at = serverAt();
        await base.advance(tripMs);
        return server(at);
      });
    // The server's clock is 5 s ahead; a 2 ms trip puts the clock within 1 ms of it.
    await trip(2, () => base.now() + 5_000);
    expect(Math.abs(time.clock.now() - (base.now() + 5_000))).toBeLessThanOrEqual(1);
    // A 2 s trip answered at its end would put the clock 1 s ahead; the quicker trip's offset stays.
    await trip(2_000, () => base.now() + 2_000 + 5_000);
    expect(Math.abs(time.clock.now() - (base.now() + 5_000))).toBeLessThanOrEqual(1);
    // A server whose clock moved (another machine after a failover) is followed within eight trips.
    for (let i = 0; i < 8; i += 1) await trip(2, () => base.now() + 9_000);
    expect(Math.abs(time.clock.now() - (base.now() + 9_000))).toBeLessThanOrEqual(1);
  });

  it("admits in FIFO order", async () => {
    const limiter = limiterOn(new RedisLimiterStore(redis.server.url), freshName(), { burst: 50, cap: 1 });
    const order: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      void limiter.acquire({ rateClass: "C", cost: 1 }).then((permit) => {
        order.push(i);
        permit.release();
      });
    }
    await waitFor(() => order.length === 7);
    await limiter.flush();
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("names its key by the account hash in a hash tag and the state's version, never the token", async () => {
    const token = "tok-secret-123";
    const key = accountKey("http://127.0.0.1:1", token);
    const name = sharedStateName(key);
    await new RedisLimiterStore(redis.server.url).update(name, () => freshState(CONFIG));
    const keys = await redis.raw.keys(`*${name}*`);
    expect(keys).toEqual([`adplatform:{${name}}:limits:v3`]);
    expect(redisStateKey(name)).toBe(keys[0]);
    expect(keys[0]).not.toContain(token);
    expect(keys[0]).not.toContain(key);
    expect(JSON.stringify(await redis.raw.hgetall(keys[0]!))).not.toContain(token);
  });

  describe("a limiter waiting on a cap full of another's tickets", () => {
    /** Two limiters of one account on two connections (two processes), a cap of 2, a steady window of 12 s (a liveness period of 2 s). */
    function twoOn(name: string, aClock?: (store: RedisLimiterStore) => Clock) {
      const stores = [new RedisLimiterStore(redis.server.url), new RedisLimiterStore(`${redis.server.url}/0`)] as const;
      // b's timers, to show it waits on a known time, not a poll.
      const delays: number[] = [];
      const make = (store: RedisLimiterStore, clock: Clock) =>
        new RateLimiter({
          clock,
          stateName: name,
          steadyWindowMs: 12_000,
          concurrency: { initial: 2, min: 1, max: 2 },
          sharedStore: store,
        });
      const bClock: Clock = {
        now: () => stores[1].clock.now(),
        setTimer: (callback, ms) => (delays.push(ms), stores[1].clock.setTimer(callback, ms)),
        clearTimer: (handle) => stores[1].clock.clearTimer(handle),
      };
      const a = make(stores[0], aClock?.(stores[0]) ?? stores[0].clock);
      const b = make(stores[1], bClock);
      return { a, b, delays, close: () => stores.forEach((store) => store.close()) };
    }

    it("is granted as soon as the other's release is heard, with no poll timer", async () => {
      const { a, b, delays, close } = twoOn(freshName());
      try {
        const held = [await a.acquire({ rateClass: "C", cost: 1 }), await a.acquire({ rateClass: "C", cost: 1 })];
        let grantedAt: number | undefined;
        void b.acquire({ rateClass: "C", cost: 1 }).then((permit) => ((grantedAt = Date.now()), permit.release()));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(grantedAt).toBeUndefined();
        const releasedAt = Date.now();
        held[0]!.release();
        await waitFor(() => grantedAt !== undefined);
        // Heard, not waited for: b's only wake-up was a's liveness deadline (2 s), and it came well before.
        expect(grantedAt! - releasedAt).toBeLessThan(1_500);
        expect(delays.every((ms) => ms >= 1_000)).toBe(true);
        held[1]!.release();
        await Promise.all([a.flush(), b.flush()]);
      } finally {
        close();
      }
    });

    it("waits the liveness period when the other was killed holding them: a time it knows", async () => {
      // a's process dies once its requests are out: its timers never fire, so it sends no heartbeat.
      const killed = (store: RedisLimiterStore): Clock => ({
        now: () => store.clock.now(),
        setTimer: () => undefined,
        clearTimer: () => undefined,
      });
      const { a, b, close } = twoOn(freshName(), killed);
      try {
        await a.acquire({ rateClass: "C", cost: 1 });
        await a.acquire({ rateClass: "C", cost: 1 });
        const since = Date.now();
        const permit = await b.acquire({ rateClass: "C", cost: 1 });
        const waited = Date.now() - since;
        // a's tickets stop counting 2 s after its last decision (not their 60 s life).
        expect(waited).toBeGreaterThan(1_000);
        expect(waited).toBeLessThan(6_000);
        permit.release();
        await b.flush();
      } finally {
        close();
      }
    });
  });

  it("lets its state expire ten minutes after its last write", async () => {
    const name = freshName();
    await new RedisLimiterStore(redis.server.url).update(name, () => freshState(CONFIG));
    const ttl = await redis.raw.pttl(redisStateKey(name));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(REDIS_STATE_TTL_MS);
  });

  it("decides again on the state another process committed in between, and commits only that decision", async () => {
    const name = freshName();
    const mine = new RedisLimiterStore(redis.server.url);
    await mine.update(name, () => ({ ...freshState(CONFIG), cap: { ...freshState(CONFIG).cap, good: 11 } }));
    // Another process commits after this store last saw the state.
    await new RedisLimiterStore(`${redis.server.url}/0`).update(name, (state) => ({ ...state!, cap: { ...state!.cap, good: 12 } }));
    const seen: number[] = [];
    await mine.update(name, (state) => {
      seen.push(state!.cap.good);
      return { ...state!, cap: { ...state!.cap, good: state!.cap.good + 100 } };
    });
    expect(seen).toEqual([11, 12]);
    expect(JSON.parse((await redis.raw.hget(redisStateKey(name), "s"))!)).toMatchObject({ cap: { good: 112 } });
  });

  it("hands decide nothing when the stored state does not parse as one of its version", async () => {
    const name = freshName();
    await redis.raw.hset(redisStateKey(name), "v", "x", "s", "{ not json");
    let seen: unknown = "not called";
    await new RedisLimiterStore(redis.server.url).update(name, (state) => ((seen = state), freshState(CONFIG)));
    expect(seen).toBeUndefined();
  });

  it("a limiter's flush lets its last release land before its process exits", async () => {
    const name = freshName();
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const { RateLimiter } = require(${JSON.stringify(join(BIN, "limiter.js"))});
         const { RedisLimiterStore } = require(${JSON.stringify(join(BIN, "redisLimiterStore.js"))});
         const limiter = new RateLimiter({ sharedStore: new RedisLimiterStore(${JSON.stringify(redis.server.url)}), stateName: ${JSON.stringify(name)} });
         limiter.acquire({ rateClass: "C", cost: 1 }).then(async (permit) => {
           permit.release(); // a decision on its way to Redis
           await limiter.flush();
           process.exit(0);
         });`,
      ],
      { stdio: ["ignore", "inherit", "inherit"] },
    );
    expect(await new Promise((resolve) => child.once("exit", resolve))).toBe(0);
    const state = JSON.parse((await redis.raw.hget(redisStateKey(name), "s"))!) as LimiterState;
    expect(state.tickets).toEqual({});
  });

  it("does not keep a process alive: a child using it exits by itself", async () => {
    const key = "exit-test-account";
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const { sharedLimiter } = require(${JSON.stringify(join(BIN, "limiterRegistry.js"))});
         const limiter = sharedLimiter(${JSON.stringify(key)});
         (async () => {
           const first = await limiter.acquire({ rateClass: "C", cost: 1 });
           first.release();
           await limiter.acquire({ rateClass: "C", cost: 1 }); // still in flight at exit: its ticket expires by itself
           console.log("done");
         })();`,
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ADPLATFORM_LIMITS_URL: redis.server.url } },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(err).toBe("");
    expect(out.trim()).toBe("done");
    expect(code).toBe(0);
    expect(await redis.raw.exists(redisStateKey(sharedStateName(key)))).toBe(1);
  });
});
