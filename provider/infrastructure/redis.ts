/**
 * The one connection per Redis URL per process, shared by the limiter's store and the create journal
 * (URL forms: `redisUrls.ts`). A URL is **in use**: commands run with bounded connect and command
 * times, never retried by ioredis, unref'd while none is pending; or **away**, from the first failed
 * command (one warning): every user's commands reject at once, so the fallback ladders step down
 * together. While away, a use sends a due probe (a fresh connection, which asks the Sentinels or the
 * cluster anew, and a PING); when it answers it replaces the old one (one info line) and the ladders
 * step back up. A failover is the same blip as a restart. Messages are scrubbed of the URL's credentials.
 */
import { Cluster, Redis } from "ioredis";
import { AdPlatformError } from "../errors";
import { redactText } from "./redact";
import { type RedisTarget, redactRedisUrl, redisTargetOf, redisUrlSecrets } from "./redisUrls";
import { say, warnOnceAbout } from "./warnings";

export { isRedisUrl, mayCarryPassword, redactRedisUrl, redisTargetOf, redisUrlSecrets, REDIS_URL_FORMS } from "./redisUrls";

export interface RedisTimeouts {
  readonly connectTimeoutMs: number;
  readonly commandTimeoutMs: number;
}

/** A Cluster answers the same commands as a server (ioredis routes each by its key's slot). */
type AnyClient = Redis | Cluster;

/**
 * A client for `url`, not connected; a failed connect or command rejects at once (a cluster still
 * follows MOVED and retries a failover within its command time). Add an `error` listener before use.
 */
export function openRedis(url: string, timeouts: RedisTimeouts): AnyClient {
  const target: RedisTarget = redisTargetOf(url) ?? { form: "server", url };
  const lazy = { lazyConnect: true, enableOfflineQueue: true };
  const once = {
    connectTimeout: timeouts.connectTimeoutMs,
    commandTimeout: timeouts.commandTimeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    autoResubscribe: false,
  };
  if (target.form === "server") return new Redis(url, { ...once, ...lazy });
  const { username, password } = target;
  if (target.form === "cluster") {
    return new Cluster([...target.nodes], {
      ...lazy,
      clusterRetryStrategy: () => null,
      redisOptions: { ...once, username, password, ...(target.tls && { tls: {} }) },
    });
  }
  return new Redis({
    ...once,
    ...lazy,
    sentinels: [...target.sentinels],
    name: target.name,
    username,
    password,
    sentinelUsername: target.sentinelUsername,
    sentinelPassword: target.sentinelPassword,
    sentinelRetryStrategy: () => null,
    ...(target.tls && { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true }),
  });
}

// Decision: connects and commands that take 2 s mean a Redis that cannot serve a limiter deciding
// every few milliseconds, nor a create waiting on its journal: better go on locally.
export const SHARED_REDIS_TIMEOUTS: RedisTimeouts = Object.freeze({ connectTimeoutMs: 2_000, commandTimeoutMs: 2_000 });

// Decision: a Redis that is away is probed at most once a second, and only while the process uses
// it: a PING a second costs the server nothing, and a failover (a few seconds) or a restart is back
// in use within about a second of serving again.
export const PROBE_EVERY_MS = 1_000;

/** What a command on an unusable Redis rejects with: what failed, never the password. */
export class RedisStoreError extends AdPlatformError {
  override readonly name = "RedisStoreError";
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super("ADP_ERR_STORE_UNUSABLE", `the Redis at ${url} is not usable: ${reason}`);
  }
}

/** Refs or unrefs a server's socket, or a cluster's one per node it reached. */
function refSockets(client: AnyClient, ref: "ref" | "unref"): void {
  for (const each of client instanceof Cluster ? client.nodes() : [client]) each.stream?.[ref]();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `promise`, or a rejection after `ms`: a cluster finding a slot uncovered (mid-failover) never settles `connect()`. */
function settles<T>(promise: Promise<T>, ms: number, keepsAlive = false): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AdPlatformError("ADP_ERR_STORE_UNUSABLE", `no answer within ${ms} ms`)), ms);
    if (!keepsAlive) timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Closes `client` unless it has ended (then ioredis has nothing to close but a timer). */
function end(client: AnyClient): void {
  if (client.status !== "end") client.disconnect();
}

export class SharedRedis {
  /** Without its passwords. */
  readonly shownUrl: string;
  private client: AnyClient;
  private connected: Promise<void> | undefined;
  private lastError = "";
  private pending = 0;
  /** Why the URL is away; undefined while it is in use. */
  private away: RedisStoreError | undefined;
  private probing = false;
  private probedAt = Number.NEGATIVE_INFINITY;
  /** To define again on a fresh connection. */
  private readonly scripts = new Map<string, { numberOfKeys: number; lua: string }>();

  constructor(
    private readonly url: string,
    private readonly timeouts: RedisTimeouts = SHARED_REDIS_TIMEOUTS,
  ) {
    this.shownUrl = redactRedisUrl(url);
    this.client = this.open();
  }

  /** Whether the URL is in use; while away, sends a probe when one is due. */
  answers(): boolean {
    if (this.away === undefined) return true;
    this.probeWhenDue();
    return false;
  }

  /** Defines a Lua command on the connection, once however many users ask for it. */
  defineScript(name: string, numberOfKeys: number, lua: string): void {
    this.scripts.set(name, { numberOfKeys, lua });
    if (!(name in this.client)) this.client.defineCommand(name, { numberOfKeys, lua });
  }

  /**
   * Runs `command` with the sockets ref'd, so the process waits for its answer and no longer; a failure
   * makes the URL away. It may run twice (see the catch): a compare-and-set, a write of the same entry.
   */
  async run<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    if (this.away !== undefined) {
      this.probeWhenDue();
      throw this.away;
    }
    const client = this.client;
    this.pending += 1;
    refSockets(client, "ref");
    try {
      await this.connect();
      // Bounded: a command held for a connection gone mid-failover may never settle on its own.
      return await settles(command(client as Redis), this.timeouts.connectTimeoutMs + 2 * this.timeouts.commandTimeoutMs, true);
    } catch (error) {
      // A failure on a connection a probe has since replaced says nothing of the URL now: run again.
      if (client !== this.client) return await this.run(command);
      throw this.giveUp(error);
    } finally {
      this.pending -= 1;
      if (this.pending === 0) refSockets(this.client, "unref");
    }
  }

  /** Makes the URL away because of `error` and warns, once per blip; returns the error to throw. */
  giveUp(error: unknown): RedisStoreError {
    if (this.away !== undefined) return this.away;
    if (error instanceof RedisStoreError) {
      this.away = error;
    } else {
      const reason = this.scrub(messageOf(error));
      this.away = new RedisStoreError(
        this.shownUrl,
        this.lastError && this.lastError !== reason ? `${reason} (${this.lastError})` : reason,
      );
    }
    this.probedAt = Date.now();
    end(this.client);
    say(awayMessage(this.url, this.away.reason, true));
    return this.away;
  }

  /** Tests. */
  close(): void {
    end(this.client);
  }

  /** A fresh client, its failures' reasons kept (without a listener ioredis prints them). */
  private open(): AnyClient {
    const client = openRedis(this.url, this.timeouts);
    client.on("error", (error: Error) => {
      if (client === this.client) this.lastError = this.scrub(error.message);
    });
    for (const [name, script] of this.scripts) client.defineCommand(name, script);
    return client;
  }

  /** One probe at a time, at most one per `PROBE_EVERY_MS`: a fresh client that answers a PING replaces the old one. */
  private probeWhenDue(): void {
    if (this.probing || Date.now() - this.probedAt < PROBE_EVERY_MS) return;
    this.probing = true;
    this.probedAt = Date.now();
    const fresh = this.open();
    void settles(
      fresh.connect().then(() => fresh.ping()),
      this.timeouts.connectTimeoutMs + this.timeouts.commandTimeoutMs,
    )
      .then(
        () => {
          if (this.pending === 0) refSockets(fresh, "unref");
          this.client = fresh;
          this.connected = Promise.resolve();
          this.lastError = "";
          this.away = undefined;
          say(backMessage(this.url), "info");
        },
        () => end(fresh),
      )
      .finally(() => {
        this.probing = false;
      });
  }

  private connect(): Promise<void> {
    this.connected ??= settles(this.client.connect(), this.timeouts.connectTimeoutMs * 2).catch((error: unknown) => {
      throw new RedisStoreError(this.shownUrl, this.scrub(this.lastError || messageOf(error)));
    });
    return this.connected;
  }

  private scrub(text: string): string {
    return redactText(text, redisUrlSecrets(this.url));
  }
}

const SETTING = "(ADPLATFORM_LIMITS_URL / adplatform:limitsUrl)";

/** Why the Redis at `url` is not used and what that means; `returns`: whether it is asked again. */
function awayMessage(url: string, reason: string, returns: boolean): string {
  return (
    `adplatform: the Redis at ${redactRedisUrl(url)} ${SETTING} is not used: ${reason}. ` +
    `Rate limits are shared with this machine's processes only, and creates are journaled in this machine's journal ` +
    `directory, which other machines do not see; the deployment goes on` +
    (returns ? ", and shares through that Redis again once it answers." : ".")
  );
}

function backMessage(url: string): string {
  return (
    `adplatform: the Redis at ${redactRedisUrl(url)} ${SETTING} answers again: rate limits are shared through it ` +
    `again, and new creates are journaled there.`
  );
}

/** Warns once per process that a URL no store can use is not used (keyed by the URL as given: two may show the same). */
export function warnUnusable(url: string, reason: string): void {
  warnOnceAbout(url, awayMessage(url, reason, false));
}

const connections = new Map<string, SharedRedis>();

/** This process's connection to `url`, opened on first use (`timeouts`: the first caller's). */
export function sharedRedis(url: string, timeouts: RedisTimeouts = SHARED_REDIS_TIMEOUTS): SharedRedis {
  const connection = connections.get(url) ?? new SharedRedis(url, timeouts);
  connections.set(url, connection);
  return connection;
}

/** Closes every connection (tests); stores made before must not be used after. */
export function closeRedisConnections(): void {
  for (const connection of connections.values()) connection.close();
  connections.clear();
}
