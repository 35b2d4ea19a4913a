/**
 * The store of several machines: an account's limiter state in Redis. An update reads, decides and commits with one Lua
 * compare-and-set on the state's version; on a conflict it decides again on the state the script answers (safe: grants
 * take effect once their commit landed). No lock key, no sleep loop. The account's hash is in braces in every key, so
 * they share a Cluster hash slot. It runs on the process's one connection to the URL (`../infrastructure/redis.ts`),
 * whose failure steps the ladder down. Times are the server's (`ServerTime`), so machines agree on a window's end.
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

// Decision: see docs/rate-limiter.md's table ("stale file lock, stale state", "the server's time", "Redis state conflicts").
/** The state expires this long after its last write, ms. */
export const REDIS_STATE_TTL_MS = 600_000;
/** Round trips whose quickest gives the server's time. */
const TRIPS_KEPT = 8;
/** Decisions in a row that lost their commit before the store counts as broken. */
const MAX_CONFLICTS = 100;

export function redisStateKey(name: string): string {
  return `adplatform:{${name}}:limits:v${LIMITER_STATE_VERSION}`;
}

/** Where a commit that released tickets of state `name` publishes the releaser's id, in the state's hash slot. */
export function redisReleaseChannel(name: string): string {
  return `adplatform:{${name}}:released:v${LIMITER_STATE_VERSION}`;
}

/** KEYS state. The state's version and state ("" for none), and the server's `TIME` (seconds, microseconds). */
const READ = `
local t = redis.call("TIME")
return {redis.call("HGET", KEYS[1], "v") or "", redis.call("HGET", KEYS[1], "s") or "", t[1], t[2]}`;

/**
 * KEYS state; ARGV version read ("" for none), new version, state, ttl ms, releaser ("": none), release channel. Commits
 * only if the version is still the one read, publishing the releaser: {1, "", "", TIME}; else {0, version, state, TIME}.
 * Versions are random, so a state that expired and was written anew never repeats one.
 */
const COMMIT_IF_UNCHANGED = `
local t = redis.call("TIME")
local current = redis.call("HGET", KEYS[1], "v") or ""
if current ~= ARGV[1] then return {0, current, redis.call("HGET", KEYS[1], "s") or "", t[1], t[2]} end
redis.call("HSET", KEYS[1], "v", ARGV[2], "s", ARGV[3])
redis.call("PEXPIRE", KEYS[1], ARGV[4])
if ARGV[5] ~= "" then redis.call("PUBLISH", ARGV[6], ARGV[5]) end
return {1, "", "", t[1], t[2]}`;

type CommitArgv = [read: string, version: string, state: string, ttlMs: number, releaser: string, channel: string];
/** A script's reply: committed (commit only), version, state, and the server's TIME. */
type Reply = [committed: number, version: string, state: string, seconds: string, microseconds: string];

interface ScriptedRedis extends Redis {
  adplatformReadLimits(key: string): Promise<[string, string, string, string]>;
  adplatformCommitLimits(key: string, ...argv: CommitArgv): Promise<Reply>;
}

/**
 * The Redis server's time: `base` plus the offset (its `TIME` less the trip's middle) of the quickest of the last
 * `TRIPS_KEPT` trips, as a trip's is off by half the trip at most. One per URL and process, kept when the store is
 * made anew, so the limiter's clock is one object for its life.
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
  readonly clock: Clock;
  /** Hears releases on a connection of its own (a subscribed client takes no other command), from the first watch to the last. */
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

  /** Hears the releases others publish on the state's channel (`redisReleaseChannel`). */
  watch(name: string, by: string, heard: () => void): () => void {
    const channel = redisReleaseChannel(name);
    const opened = this.subscriber === undefined;
    const subscriber = (this.subscriber ??= openRedis(this.url, SHARED_REDIS_TIMEOUTS));
    if (opened) {
      let lastError: unknown = new Error("Connection is closed.");
      subscriber.on("error", (error: unknown) => (lastError = error));
      subscriber.on("message", (from: string, releaser: string) => this.listeners.tell(from, releaser));
      // A subscriber lost is the place failing, as a command would (the server went away, or would not take it): the
      // URL is away until a probe finds it back, and every waiter decides again at once, on the place the ladder steps
      // down to, rather than sleep to the known time on one it has left.
      subscriber.once("end", () => {
        if (this.subscriber !== subscriber) return; // closed here
        this.subscriber = undefined;
        this.connection.giveUp(lastError);
        this.listeners.tellAll();
      });
    }
    const { first, remove } = this.listeners.add(channel, by, heard);
    if (first || opened) {
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

  /** Closes the subscriber connection, if any (commands run on the process's shared one). */
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
