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
import { Cluster, type Redis } from "ioredis";
import {
  type Clock,
  epochClock,
  offsetClock,
  openRedis,
  RedisStoreError,
  SHARED_REDIS_TIMEOUTS,
  type SharedRedis,
  sharedRedis,
} from "../infrastructure";
import { LIMITER_STATE_VERSION, type LimiterState, releasedBetween } from "./limiterState";
import { type LimiterStore, parseState, ReleaseListeners } from "./limiterStores";

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

/** The channel a commit that released tickets of the state named `name` publishes on (the releaser's id), in the state's hash slot. */
export function redisReleaseChannel(name: string): string {
  return `adplatform:{${name}}:released:v${LIMITER_STATE_VERSION}`;
}

/** KEYS state. The state's version and state ("" for none), and the server's `TIME` (seconds, microseconds). */
const READ = `
local t = redis.call("TIME")
return {redis.call("HGET", KEYS[1], "v") or "", redis.call("HGET", KEYS[1], "s") or "", t[1], t[2]}`;

/**
 * KEYS state; ARGV version read ("" for none), new version, state, ttl ms, releaser ("": none
 * released), release channel. Commits `{v, s}` only if the version is still the one read, and then
 * publishes the releaser on the channel when there is one: {1, "", "", TIME}; else changes nothing:
 * {0, version, state, TIME}. Versions are random, so a state that expired and was written anew
 * never repeats one.
 */
const COMMIT_IF_UNCHANGED = `
local t = redis.call("TIME")
local current = redis.call("HGET", KEYS[1], "v") or ""
if current ~= ARGV[1] then return {0, current, redis.call("HGET", KEYS[1], "s") or "", t[1], t[2]} end
redis.call("HSET", KEYS[1], "v", ARGV[2], "s", ARGV[3])
redis.call("PEXPIRE", KEYS[1], ARGV[4])
if ARGV[5] ~= "" then redis.call("PUBLISH", ARGV[6], ARGV[5]) end
return {1, "", "", t[1], t[2]}`;

/** A script's reply: committed (commit only), version, state, and the server's TIME. */
type Reply = [committed: number, version: string, state: string, seconds: string, microseconds: string];

interface ScriptedRedis extends Redis {
  adplatformReadLimits(key: string): Promise<[string, string, string, string]>;
  adplatformCommitLimits(
    key: string,
    read: string,
    version: string,
    state: string,
    ttlMs: number,
    releaser: string,
    channel: string,
  ): Promise<Reply>;
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
  /**
   * A connection of its own for hearing releases (a subscribed ioredis client takes no other
   * command), opened by the first watch and closed with the last one, or with the store. It fails
   * alone: a watch that hears nothing leaves the limiter its known wake-up time.
   */
  private subscriber: Redis | Cluster | undefined;
  private readonly listeners = new ReleaseListeners();

  constructor(
    private readonly url: string,
    private readonly time: ServerTime = new ServerTime(),
  ) {
    this.connection = sharedRedis(url);
    this.connection.defineScript("adplatformReadLimits", 1, READ);
    this.connection.defineScript("adplatformCommitLimits", 1, COMMIT_IF_UNCHANGED);
    this.clock = time.clock;
  }

  async update(name: string, decide: (state: LimiterState | undefined) => LimiterState, by = ""): Promise<void> {
    const key = redisStateKey(name);
    await this.connection.run(async (redis) => {
      const client = redis as ScriptedRedis;
      let known = this.seen.get(key);
      if (known === undefined) {
        const [version, raw] = await this.time.measure(() => client.adplatformReadLimits(key));
        known = { version, raw };
      }
      for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
        const before = parseState(known.raw);
        const after = decide(before);
        const raw: string = JSON.stringify(after);
        const next = randomBytes(8).toString("hex");
        // "-" for a limiter that did not say who it is: every watcher hears it.
        const releaser = releasedBetween(before, after) ? by || "-" : "";
        const [committed, version, current] = await this.time.measure(() =>
          client.adplatformCommitLimits(key, known!.version, next, raw, REDIS_STATE_TTL_MS, releaser, redisReleaseChannel(name)),
        );
        known = committed === 1 ? { version: next, raw } : { version, raw: current };
        this.seen.set(key, known);
        if (committed === 1) return;
      }
      throw new RedisStoreError(this.connection.shownUrl, `its limiter state changed under ${MAX_CONFLICTS} decisions in a row`);
    });
  }

  /** Hears the releases others publish on the state's channel (`redisReleaseChannel`), on the store's subscriber connection. */
  watch(name: string, by: string, heard: () => void): () => void {
    const channel = redisReleaseChannel(name);
    let subscriber = this.subscriber;
    if (subscriber === undefined) {
      subscriber = this.subscriber = openRedis(this.url, SHARED_REDIS_TIMEOUTS);
      subscriber.on("error", () => undefined); // hearing nothing is the fallback: the known wake-up time
      subscriber.on("message", (from: string, releaser: string) => this.listeners.tell(from, releaser));
    }
    const { first, remove } = this.listeners.add(channel, by, heard);
    if (first) {
      subscriber.subscribe(channel).then(
        () => unref(subscriber),
        () => undefined,
      );
    }
    return () => {
      if (!remove().last || this.subscriber !== subscriber) return;
      if (this.listeners.size === 0) this.close();
      else subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  /** Closes the subscriber connection, if any (the store's own commands run on the process's shared one). */
  close(): void {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber !== undefined && subscriber.status !== "end") subscriber.disconnect();
  }
}

/** A subscriber keeps no process alive: a limiter that waits has its own timer for that. */
function unref(client: Redis | Cluster): void {
  for (const each of client instanceof Cluster ? client.nodes() : [client]) each.stream?.unref();
}
