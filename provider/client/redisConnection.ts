/**
 * What every Redis user of the provider (the limiter's store, the create journal) shares about a
 * connection: which URLs are accepted, how a URL is shown without its password, and how a
 * connection is opened: lazily, with bounded connect and command times, and never retried nor
 * reconnected, because a Redis that is gone is a fallback to local state, not something to wait for.
 */
import { Redis } from "ioredis";
import { REDACTED } from "./redact";

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
