/**
 * What every Redis user of the provider (the limiter's store, the create journal) shares about a
 * connection: which URLs are accepted, how a URL is shown without its password, and how a
 * connection is opened: lazily, with bounded connect and command times, and never retried nor
 * reconnected, because a Redis that is gone is a fallback to local state, not something to wait for.
 */
import { Redis } from "ioredis";

/** How long connecting and each command may take, ms. */
export interface RedisTimeouts {
  readonly connectTimeoutMs: number;
  readonly commandTimeoutMs: number;
}

/**
 * `url` without its password (kept: scheme, user name, host, port, database), to be shown; `url`
 * as given when it is not a URL (it then holds nothing a URL parser would call a password).
 */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//");
  }
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
