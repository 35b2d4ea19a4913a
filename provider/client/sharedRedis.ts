/**
 * One connection per Redis URL per process, shared by every user of that Redis (the limiter's
 * store, the create journal), and the one decision that it cannot be used.
 *
 * The connection is opened lazily, with bounded connect and command times, never retried nor
 * reconnected (`openRedis`), and unref'd whenever no command is pending, so it never keeps the
 * process alive. The first command that fails makes the URL unusable for the rest of the process:
 * every user's later commands reject at once, so the limiter and the journal fall back together
 * (to the machine's state file, to the journal directory), and one warning says so
 * (`./fallbackWarnings`). A failure's message is scrubbed of whatever in the URL may be a
 * credential.
 *
 * The registry is a per-process cache keyed by URL, not configuration: which URL to use comes
 * with each caller's settings; what is kept is the socket, so that one URL is one connection.
 */
import type { Redis } from "ioredis";
import { warnOnceAbout } from "./fallbackWarnings";
import { redactText } from "./redact";
import { openRedis, redactRedisUrl, redisUrlSecrets, type RedisTimeouts } from "./redisConnection";

// Decision: connects and commands that take 2 s mean a Redis that cannot serve a limiter deciding
// every few milliseconds, nor a create waiting on its journal: better go on locally.
/** Connect and command time limits of a shared connection, ms. */
export const SHARED_REDIS_TIMEOUTS: RedisTimeouts = Object.freeze({ connectTimeoutMs: 2_000, commandTimeoutMs: 2_000 });

/** The error a command on an unusable Redis rejects with: says what failed, never the password. */
export class RedisStoreError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`the Redis at ${url} is not usable: ${reason}`);
    this.name = "RedisStoreError";
  }
}

/** The shared connection to one Redis URL (see the file comment). */
export class SharedRedis {
  readonly client: Redis;
  /** The URL as shown: without its password. */
  readonly shownUrl: string;
  private connected: Promise<void> | undefined;
  private lastError = "";
  private pending = 0;
  private failure: RedisStoreError | undefined;

  constructor(
    readonly url: string,
    timeouts: RedisTimeouts = SHARED_REDIS_TIMEOUTS,
  ) {
    this.shownUrl = redactRedisUrl(url);
    this.client = openRedis(url, timeouts);
    // The reason a connection failed arrives as an event; without a listener ioredis prints it.
    this.client.on("error", (error: Error) => {
      this.lastError = this.scrub(error.message);
    });
  }

  /** Whether a command failed and the URL is given up for this process. */
  get unusable(): boolean {
    return this.failure !== undefined;
  }

  /** Defines a Lua command on the connection, once however many users ask for it. */
  defineScript(name: string, numberOfKeys: number, lua: string): void {
    if (!(name in this.client)) this.client.defineCommand(name, { numberOfKeys, lua });
  }

  /**
   * Runs `command` with the socket ref'd, so the process waits for its answer and no longer. A
   * failure gives the URL up (and warns, once); so does `giveUp` for a failure found by a caller.
   */
  async run<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    if (this.failure !== undefined) throw this.failure;
    this.pending += 1;
    this.client.stream?.ref();
    try {
      await this.connect();
      return await command(this.client);
    } catch (error) {
      throw this.giveUp(error);
    } finally {
      this.pending -= 1;
      if (this.pending === 0) this.client.stream?.unref();
    }
  }

  /** Gives the URL up for this process because of `error`, and warns once; returns the error to throw. */
  giveUp(error: unknown): RedisStoreError {
    if (this.failure !== undefined) return this.failure;
    if (error instanceof RedisStoreError) {
      this.failure = error;
    } else {
      const reason = this.scrub(error instanceof Error ? error.message : String(error));
      this.failure = new RedisStoreError(
        this.shownUrl,
        this.lastError && this.lastError !== reason ? `${reason} (${this.lastError})` : reason,
      );
    }
    warnUnusable(this.url, this.failure.reason);
    return this.failure;
  }

  /** Closes the connection (tests; the process exits without it). */
  close(): void {
    if (this.client.status !== "end") this.client.disconnect();
  }

  private connect(): Promise<void> {
    this.connected ??= this.client.connect().catch((error: unknown) => {
      const reason = this.lastError || (error instanceof Error ? error.message : String(error));
      throw new RedisStoreError(this.shownUrl, this.scrub(reason));
    });
    return this.connected;
  }

  /** `text` without the URL's credentials, should a message ever quote them. */
  private scrub(text: string): string {
    return redactText(text, redisUrlSecrets(this.url));
  }
}

/**
 * Warns once per process per URL that the Redis at `url` is not used, for the limits and the journal
 * alike, and why (`reason` holds no credential). Keyed by the URL as given: two URLs may show the same.
 */
export function warnUnusable(url: string, reason: string): void {
  warnOnceAbout(
    url,
    `adplatform: the Redis at ${redactRedisUrl(url)} (ADPLATFORM_LIMITS_URL / adplatform:limitsUrl) is not used: ${reason}. ` +
      `Rate limits are shared with this machine's processes only, and creates are journaled in this machine's journal ` +
      `directory, which other machines do not see; the deployment goes on.`,
  );
}

const connections = new Map<string, SharedRedis>();

/** This process's connection to `url`, opened on first use (`timeouts`: the first caller's). */
export function sharedRedis(url: string, timeouts: RedisTimeouts = SHARED_REDIS_TIMEOUTS): SharedRedis {
  let connection = connections.get(url);
  if (connection === undefined) {
    connection = new SharedRedis(url, timeouts);
    connections.set(url, connection);
  }
  return connection;
}

/** Closes every connection of this process (tests). Stores made before must not be used after. */
export function closeRedisConnections(): void {
  for (const connection of connections.values()) connection.close();
  connections.clear();
}
