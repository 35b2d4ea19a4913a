/**
 * The one connection per Redis URL per process, shared by every user of that Redis (the limiter's
 * store, the create journal), and what they share about a URL: which URLs are accepted and how one
 * is shown without its password.
 *
 * A connection is opened on first use, with bounded connect and command times, never retried nor
 * reconnected (a Redis that is gone is a step down the fallback ladder, `fallbackLadder.ts`, not
 * something to wait for), and unref'd whenever no command is pending, so it never keeps the process
 * alive. The first command that fails gives the URL up for the rest of the process: every user's
 * later commands reject at once, so the limiter and the journal step down together, and one warning
 * says so (`warnings.ts`). A failure's message is scrubbed of whatever in the URL may be a credential.
 */
import { Redis } from "ioredis";
import { REDACTED, redactText } from "../client/redact";
import { warnOnceAbout } from "./warnings";

/** How long connecting and each command may take, ms. */
export interface RedisTimeouts {
  readonly connectTimeoutMs: number;
  readonly commandTimeoutMs: number;
}

// The one URL shape whose parts are certain: `redis[s]://[userinfo@]host[:port][/db][?query]`,
// userinfo and query free of the characters that end those parts. A password holding an unencoded
// `/`, `?`, `#` or `@`, a `redis:/` typo, a missing scheme: where the password ends is then anyone's
// guess (ioredis's parser and the WHATWG one disagree on such URLs), so nothing of it is shown.
const CLEAR_REDIS_URL = /^(rediss?):\/\/(?:([^@/?#]*)@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%-]+)(:\d{1,5})?(\/\d*)?(?:\?([^@/?#]*))?$/i;
/**
 * The scheme of a URL that is not of the clear shape, when it is one a limits URL could mean (else
 * nothing: text before a `:` may as well be a password).
 */
const KNOWN_SCHEME = /^(?:rediss?|valkeys?|https?|tcp|unix):/i;
/** A user name or query parameter name that may be shown. */
const SHOWABLE_NAME = /^[A-Za-z0-9._~-]+$/;

/**
 * `url` as it may be shown: scheme, host, port, database, a user name given before a password, and
 * the names of query parameters; never a password nor a query value (ioredis reads
 * `?password=`). Fails safe: a URL not of the clear shape shows as its scheme and `[REDACTED]`
 * (everything after the scheme), and a user info without a `:` (which some write for a password)
 * as `[REDACTED]`.
 */
export function redactRedisUrl(url: string): string {
  const parts = CLEAR_REDIS_URL.exec(url.trim());
  if (parts === null) {
    const scheme = KNOWN_SCHEME.exec(url.trim());
    return `${scheme?.[0] ?? ""}${REDACTED}`;
  }
  const [, scheme, userinfo, host, port = "", db = "", query] = parts;
  let user = "";
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(":");
    const name = colon === -1 ? "" : userinfo.slice(0, colon);
    user = colon === -1 ? `${REDACTED}@` : name === "" ? "" : SHOWABLE_NAME.test(name) ? `${name}@` : `${REDACTED}@`;
  }
  const shownQuery =
    query === undefined
      ? ""
      : `?${query
          .split("&")
          .map((pair) => {
            const name = pair.split("=")[0] ?? "";
            return SHOWABLE_NAME.test(name) ? `${name}=${REDACTED}` : REDACTED;
          })
          .join("&")}`;
  return `${scheme}://${user}${host}${port}${db === "/" ? "" : db}${shownQuery}`;
}

/**
 * Whether `url` may carry a password: user info or a `password` query parameter, or a shape whose
 * parts are not certain.
 */
export function mayCarryPassword(url: string): boolean {
  const parts = CLEAR_REDIS_URL.exec(url.trim());
  if (parts === null) return true;
  const [, , userinfo, , , , query] = parts;
  return userinfo !== undefined || /(^|&)password=/i.test(query ?? "");
}

/**
 * What in `url` may be a credential, for scrubbing messages that might quote it (`redactText`):
 * the user info whole and what follows its first `:`, each query value, raw and decoded; for a URL not of the
 * clear shape, every span of what follows the scheme between two delimiters (`/ : @ ? # & = [ ]`,
 * white space) or an end, since no one knows where its password starts or ends.
 */
export function redisUrlSecrets(url: string): string[] {
  const trimmed = url.trim();
  const parts = CLEAR_REDIS_URL.exec(trimmed);
  const raw: string[] = [];
  if (parts === null) {
    // Any parser cuts a password at delimiters, so every span between two of them (or an end).
    const rest = trimmed.replace(KNOWN_SCHEME, "");
    const cuts = [0, ...[...rest.matchAll(/[/:@?#&=[\]\s]/g)].map((match) => match.index), rest.length];
    for (const [i, start] of cuts.entries()) {
      for (const end of cuts.slice(i + 1)) {
        raw.push(rest.slice(start, end), rest.slice(start + 1, end));
      }
    }
  } else {
    const [, , userinfo, , , , query] = parts;
    if (userinfo !== undefined) raw.push(userinfo, userinfo.slice(userinfo.indexOf(":") + 1));
    for (const pair of query?.split("&") ?? []) raw.push(pair.slice(pair.indexOf("=") + 1));
  }
  const secrets = new Set<string>();
  for (const text of raw) {
    secrets.add(text);
    for (const decode of [decodeURIComponent, (t: string) => decodeURIComponent(t.replace(/\+/g, " "))]) {
      try {
        secrets.add(decode(text));
      } catch {
        // not percent-encoded validly: the raw text is what could be quoted
      }
    }
  }
  // Longest first, so a secret is not left half shown after a shorter one inside it was replaced.
  return [...secrets].filter((secret) => secret !== "").sort((a, b) => b.length - a.length);
}

/** Whether `url` is one the Redis stores accept: `redis://` or `rediss://` (TLS). */
export function isRedisUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    return (protocol === "redis:" || protocol === "rediss:") && hostname !== "";
  } catch {
    return false;
  }
}

/**
 * A client for `url`, not yet connected (`connect()` or the first command connects it). A failed
 * connect or command rejects at once: no retries, no reconnects, no resubscribing. The caller adds
 * an `error` listener before its first command; without one ioredis prints every failure.
 */
export function openRedis(url: string, timeouts: RedisTimeouts): Redis {
  return new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeouts.connectTimeoutMs,
    commandTimeout: timeouts.commandTimeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: true,
    autoResubscribe: false,
  });
}

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
