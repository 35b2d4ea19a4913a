/**
 * The Redis limiter store against a real `redis-server` (tests/helpers/redisServer.ts): limiters on
 * one Redis share one budget, keys are named by hash and expire, a dead holder's lock and in-flight
 * entries are reclaimed, and a process using it exits by itself. The fallback to the file store is
 * in `fallbackLimiterStore.test.ts`.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { RATE_CLASSES } from "../../../provider/catalog/rateClasses";
import { accountKey } from "../../../provider/client/accountKey";
import { epochClock } from "../../../provider/client/clock";
import { sharedStateName } from "../../../provider/client/fileLimiterStore";
import { type Permit, RateLimiter } from "../../../provider/client/limiter";
import { isOwnLimiterId, type LimiterState } from "../../../provider/client/limiterStore";
import { REDIS_KEY_PREFIX, RedisLimiterStore, redisStateKey } from "../../../provider/client/redisLimiterStore";
import { useRedisServer } from "../../helpers/redisServer";
import { waitFor } from "../../helpers/waitFor";

const BIN = join(__dirname, "..", "..", "..", "bin", "provider", "client");

const redis = useRedisServer();

let accounts = 0;
/** A fresh account name per test. */
const freshName = () => sharedStateName(accountKey("http://127.0.0.1:1", `token-${++accounts}`));

function limiterOn(store: RedisLimiterStore, options: { burst: number; cap: number }): RateLimiter {
  return new RateLimiter({
    clock: epochClock,
    classes: { ...RATE_CLASSES, C: { burst: options.burst, steady: 100 } },
    concurrency: { initial: options.cap, min: 1, max: options.cap },
    sharedStore: store,
  });
}

describe("Redis limiter store", () => {
  it("two limiters on one Redis never admit more than a window's limit together", async () => {
    const name = freshName();
    // Two connections (a URL of its own each), as two processes would have.
    const a = limiterOn(new RedisLimiterStore(redis.server.url, name), { burst: 5, cap: 8 });
    const b = limiterOn(new RedisLimiterStore(`${redis.server.url}/0`, name), { burst: 5, cap: 8 });
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
    // Whatever the timing, no burst window (1 s from its first admission) held more than 5.
    const times = admitted.map((permit) => permit.admittedAt).sort((x, y) => x - y);
    const first = times[0]!;
    expect(times.filter((at) => at < first + 1_000)).toHaveLength(5);
    const state = await new RedisLimiterStore(redis.server.url, name).load();
    expect(state.classes.C).toBeDefined();
  });

  it("admits in FIFO order", async () => {
    const limiter = limiterOn(new RedisLimiterStore(redis.server.url, freshName()), { burst: 50, cap: 1 });
    const order: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      void limiter.acquire({ rateClass: "C", cost: 1 }).then((permit) => {
        order.push(i);
        permit.release();
      });
    }
    await waitFor(() => order.length === 7);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("names its keys by the account hash, never the token, and leaves no lock behind", async () => {
    const token = "tok-secret-123";
    const key = accountKey("http://127.0.0.1:1", token);
    const store = new RedisLimiterStore(redis.server.url, sharedStateName(key));
    await store.transact((state) => {
      state.pausedUntil = 1;
    });
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, found] = await redis.raw.scan(cursor, "MATCH", `${REDIS_KEY_PREFIX}*`);
      cursor = next;
      keys.push(...found);
    } while (cursor !== "0");
    expect(keys).toContain(redisStateKey(sharedStateName(key)));
    for (const name of keys) {
      expect(name).toMatch(/^adplatform:limits:[0-9a-f]{32}(:lock)?$/);
      expect(name).not.toContain(token);
      expect(name).not.toContain(key);
    }
    expect(keys).not.toContain(`${redisStateKey(sharedStateName(key))}:lock`);
    expect(await redis.raw.get(redisStateKey(sharedStateName(key)))).not.toContain(token);
  });

  it("lets its state expire when nobody writes it", async () => {
    const store = new RedisLimiterStore(redis.server.url, freshName(), { stateTtlMs: 300 });
    await store.transact((state) => {
      state.pausedUntil = 5;
    });
    const ttl = await redis.raw.pttl(store.stateKey);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    await waitFor(async () => (await redis.raw.exists(store.stateKey)) === 0);
    expect((await store.load()).pausedUntil).toBeNull();
  });

  it("takes over a lock whose holder died once it expires", async () => {
    const store = new RedisLimiterStore(redis.server.url, freshName());
    await redis.raw.set(`${store.stateKey}:lock`, "a-dead-holder", "PX", 200);
    await expect(store.transact(() => "done")).resolves.toBe("done");
    expect(await redis.raw.exists(`${store.stateKey}:lock`)).toBe(0);
  });

  it("drops the in-flight entries of a process that died, once their lease lapses", async () => {
    const name = freshName();
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const { RateLimiter } = require(${JSON.stringify(join(BIN, "limiter.js"))});
         const { RedisLimiterStore } = require(${JSON.stringify(join(BIN, "redisLimiterStore.js"))});
         const store = new RedisLimiterStore(${JSON.stringify(redis.server.url)}, ${JSON.stringify(name)}, { leaseMs: 400 });
         new RateLimiter({ sharedStore: store }).acquire({ rateClass: "C", cost: 1 }).then(() => {
           console.log("admitted");
           setInterval(() => undefined, 1000);
         });`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    await waitFor(() => out.includes("admitted"));
    const store = new RedisLimiterStore(redis.server.url, name);
    const childEntries = (state: LimiterState) => Object.keys(state.inFlight).filter((id) => !isOwnLimiterId(id));
    // The permit is handed out inside the transaction, before its write lands.
    await waitFor(async () => childEntries(await store.load()).length > 0);
    const first = await store.load();
    expect(childEntries(first)).toHaveLength(1);
    const [id] = childEntries(first);
    const firstLease = first.leases?.[id!] ?? 0;
    // Alive, it renews its lease, and a transaction keeps its entry.
    await waitFor(async () => ((await store.load()).leases?.[id!] ?? 0) > firstLease);
    expect(await store.transact((state) => childEntries(state))).toEqual([id]);
    child.kill("SIGKILL");
    await exited;
    await waitFor(async () => (await store.transact((state) => childEntries(state))).length === 0);
    expect((await store.load()).leases?.[id!]).toBeUndefined();
  });

  it("flush lets a process's last release land before it exits", async () => {
    const name = freshName();
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const { RateLimiter } = require(${JSON.stringify(join(BIN, "limiter.js"))});
         const { RedisLimiterStore } = require(${JSON.stringify(join(BIN, "redisLimiterStore.js"))});
         const store = new RedisLimiterStore(${JSON.stringify(redis.server.url)}, ${JSON.stringify(name)});
         new RateLimiter({ sharedStore: store }).acquire({ rateClass: "C", cost: 1 }).then(async (permit) => {
           permit.release(); // a transaction on its way to Redis
           await store.flush();
           process.exit(0);
         });`,
      ],
      { stdio: ["ignore", "inherit", "inherit"] },
    );
    expect(await new Promise((resolve) => child.once("exit", resolve))).toBe(0);
    const state = await new RedisLimiterStore(redis.server.url, name).load();
    // Released, not left in flight for the others to hold back for, nor unanswered in its windows.
    expect(state.inFlight).toEqual({});
    expect(state.classes.C?.burst.unanswered).toBe(0);
    expect(state.classes.C?.steady.unanswered).toBe(0);
    expect(await redis.raw.exists(`${redisStateKey(name)}:lock`)).toBe(0);
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
           await limiter.acquire({ rateClass: "C", cost: 1 }); // still in flight at exit: leases renewing
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
