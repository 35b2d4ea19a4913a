/**
 * The store of several machines: an account's limiter state in Redis, shared by every process on
 * every machine pointing at it. An update reads the state, decides, and commits with one Lua
 * compare-and-set on the state's version; when another process committed in between, the script
 * answers with that state and the update decides again on it. That is safe because a decision's
 * grants take effect only once its commit landed (`limiter.ts`). No lock key, no sleep loop.
 *
 * The key is `adplatform:{<name>}:limits:v<version>`: `<name>` is the account's hash
 * (`sharedStateName`, never the token), in braces so that every key of one account falls in one
 * Redis Cluster hash slot. The state expires 10 minutes after its last write. It runs on the
 * process's one connection to the URL (`../infrastructure/redis.ts`); a failure gives the URL up
 * and the fallback ladder steps down to the machine's file store.
 *
 * Times in the state are the Redis server's (`ServerTime`): every round trip reads its `TIME`, so
 * machines whose clocks disagree still agree on when a window they share ends.
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { type Clock, epochClock, offsetClock, RedisStoreError, type SharedRedis, sharedRedis } from "../infrastructure";
import { LIMITER_STATE_VERSION, type LimiterState } from "./limiterState";
import { type LimiterStore, parseState } from "./limiterStores";

/** The state expires this long after its last write, ms: nothing in it is of use that long after. */
export const REDIS_STATE_TTL_MS = 600_000;
/** Round trips whose quickest gives the server's time: a few, so a server moved to another machine is followed within as many trips. */
const TRIPS_KEPT = 8;
/** Decisions in a row that lost their commit before the store counts as broken. */
const MAX_CONFLICTS = 100;

/** The key of the state named `name`. */
export function redisStateKey(name: string): string {
  return `adplatform:{${name}}:limits:v${LIMITER_STATE_VERSION}`;
}

/** KEYS state. The state's version and state ("" for none), and the server's `TIME` (seconds, microseconds). */
const READ = `
local t = redis.call("TIME")
return {redis.call("HGET", KEYS[1], "v") or "", redis.call("HGET", KEYS[1], "s") or "", t[1], t[2]}`;

/**
 * KEYS state; ARGV version read ("" for none), new version, state, ttl ms. Commits `{v, s}` only if
 * the version is still the one read: {1, "", "", TIME}; else changes nothing: {0, version, state,
 * TIME}. Versions are random, so a state that expired and was written anew never repeats one.
 */
const COMMIT_IF_UNCHANGED = `
local t = redis.call("TIME")
local current = redis.call("HGET", KEYS[1], "v") or ""
if current ~= ARGV[1] then return {0, current, redis.call("HGET", KEYS[1], "s") or "", t[1], t[2]} end
redis.call("HSET", KEYS[1], "v", ARGV[2], "s", ARGV[3])
redis.call("PEXPIRE", KEYS[1], ARGV[4])
return {1, "", "", t[1], t[2]}`;

/** A script's reply: committed (commit only), version, state, and the server's TIME. */
type Reply = [committed: number, version: string, state: string, seconds: string, microseconds: string];

interface ScriptedRedis extends Redis {
  adplatformReadLimits(key: string): Promise<[string, string, string, string]>;
  adplatformCommitLimits(key: string, read: string, version: string, state: string, ttlMs: number): Promise<Reply>;
}

/**
 * The Redis server's time as this process reads it: `base` plus an offset measured on round trips
 * (the server's `TIME` less the trip's middle on `base`). A trip's offset is off by at most half
 * the trip, so the one kept is that of the quickest of the last `TRIPS_KEPT` trips: a trip slowed
 * by a failover or a loaded server does not move the clock by half its delay. One per URL and
 * process, kept when the store is made anew after Redis was away, so the limiter's clock is one
 * object for its life.
 */
export class ServerTime {
  private offsetMs = 0;
  private trips: { readonly tripMs: number; readonly offsetMs: number }[] = [];
  readonly clock: Clock;

  constructor(private readonly base: Clock = epochClock) {
    this.clock = offsetClock(base, () => this.offsetMs);
  }

  /** Runs `trip`, whose reply ends with the server's TIME, and learns the offset from it. */
  async measure<R extends readonly unknown[]>(trip: () => Promise<R>): Promise<R> {
    const sent = this.base.now();
    const reply = await trip();
    const received = this.base.now();
    const [seconds, microseconds] = reply.slice(-2).map(Number) as [number, number];
    if (Number.isFinite(seconds) && Number.isFinite(microseconds)) {
      const trip = { tripMs: received - sent, offsetMs: seconds * 1000 + microseconds / 1000 - (sent + received) / 2 };
      this.trips = [...this.trips.slice(1 - TRIPS_KEPT), trip];
      this.offsetMs = this.trips.reduce((best, next) => (next.tripMs < best.tripMs ? next : best)).offsetMs;
    }
    return reply;
  }
}

export class RedisLimiterStore implements LimiterStore {
  private readonly connection: SharedRedis;
  /** The version and state last seen per key: most updates then take one round trip. */
  private readonly seen = new Map<string, { version: string; raw: string }>();
  /** The server's time: the scale of every time in the state. */
  readonly clock: Clock;

  constructor(
    url: string,
    private readonly time: ServerTime = new ServerTime(),
  ) {
    this.connection = sharedRedis(url);
    this.connection.defineScript("adplatformReadLimits", 1, READ);
    this.connection.defineScript("adplatformCommitLimits", 1, COMMIT_IF_UNCHANGED);
    this.clock = time.clock;
  }

  async update(name: string, decide: (state: LimiterState | undefined) => LimiterState): Promise<void> {
    const key = redisStateKey(name);
    await this.connection.run(async (redis) => {
      const client = redis as ScriptedRedis;
      let known = this.seen.get(key);
      if (known === undefined) {
        const [version, raw] = await this.time.measure(() => client.adplatformReadLimits(key));
        known = { version, raw };
      }
      for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
        const raw: string = JSON.stringify(decide(parseState(known.raw)));
        const next = randomBytes(8).toString("hex");
        const [committed, version, current] = await this.time.measure(() =>
          client.adplatformCommitLimits(key, known!.version, next, raw, REDIS_STATE_TTL_MS),
        );
        known = committed === 1 ? { version: next, raw } : { version, raw: current };
        this.seen.set(key, known);
        if (committed === 1) return;
      }
      throw new RedisStoreError(this.connection.shownUrl, `its limiter state changed under ${MAX_CONFLICTS} decisions in a row`);
    });
  }
}
