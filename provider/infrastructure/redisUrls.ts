/**
 * The limits URL's forms and how one is shown without its passwords: a server (`redis://`, ioredis
 * parses it), a Cluster named by some of its nodes (`redis+cluster://`), or a primary found through
 * its Sentinels (`redis+sentinel://.../<name>`); `rediss` for TLS. Every password is part of the one
 * URL, so it stays the one secret setting (`mayCarryPassword` makes the native face mark it secret)
 * and every message that could quote it is scrubbed of them (`redisUrlSecrets`).
 */
import { REDACTED } from "./redact";

export interface RedisNode {
  readonly host: string;
  readonly port: number;
}

/** The set-up a limits URL names, as ioredis needs it. */
export type RedisTarget =
  | { readonly form: "server"; readonly url: string }
  | {
      readonly form: "cluster";
      readonly tls: boolean;
      readonly username?: string;
      readonly password?: string;
      readonly nodes: readonly RedisNode[];
    }
  | {
      readonly form: "sentinel";
      readonly tls: boolean;
      readonly username?: string;
      /** The data nodes' (the primary's and its replicas'). */
      readonly password?: string;
      readonly sentinels: readonly RedisNode[];
      /** The primary's, as the sentinels monitor it. */
      readonly name: string;
      readonly sentinelUsername?: string;
      readonly sentinelPassword?: string;
    };

/** For messages that say what a limits URL may be. */
export const REDIS_URL_FORMS =
  "redis://[[user]:password@]host[:port][/db], redis+cluster://[[user]:password@]host:port[,host:port...], " +
  "or redis+sentinel://[[user]:password@]host:port[,host:port...]/<primary name>[?sentinelPassword=...]; rediss for TLS; " +
  "a password percent-encodes / ? # @ , & and %";

const HOST = String.raw`(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%-]+)(?::\d{1,5})?`;
// The shapes whose parts are certain: `<scheme>://[userinfo@]host[:port][,host[:port]...][/path][?query]`,
// userinfo and query free of the characters that end them. With a password holding an unencoded
// `/`, `?`, `#` or `@`, a `redis:/` typo or no scheme, where the password ends is anyone's guess
// (ioredis's parser and the WHATWG one disagree), so nothing of it is shown.
const CLEAR_REDIS_URL = new RegExp(
  String.raw`^(rediss?(?:\+cluster|\+sentinel)?)://(?:([^@/?#]*)@)?(${HOST}(?:,${HOST})*)(/[A-Za-z0-9._-]*)?(?:\?([^@/?#]*))?$`,
  "i",
);
/** A scheme a limits URL could mean (other text before a `:` may as well be a password). */
const KNOWN_SCHEME = /^(?:rediss?(?:\+cluster|\+sentinel)?|valkeys?|https?|tcp|unix):/i;
/** A user name or query parameter name that may be shown. */
const SHOWABLE_NAME = /^[A-Za-z0-9._~-]+$/;

/**
 * The parts of `url` when it is of a clear shape: one host and an optional database number for a
 * server, hosts and no path for a cluster, hosts and the primary's name for Sentinel.
 */
function clearParts(url: string) {
  const parts = CLEAR_REDIS_URL.exec(url.trim());
  if (parts === null) return undefined;
  const [, scheme = "", userinfo, hosts = "", path = "", query] = parts;
  const form = /\+cluster$/i.test(scheme) ? "cluster" : /\+sentinel$/i.test(scheme) ? "sentinel" : "server";
  const fits =
    form === "server"
      ? !hosts.includes(",") && /^(\/\d*)?$/.test(path)
      : form === "cluster"
        ? path === "" || path === "/"
        : /^\/[A-Za-z0-9._-]+$/.test(path);
  return fits ? { scheme, form, userinfo, hosts, path, query } : undefined;
}

/**
 * `url` as it may be shown: scheme, hosts, ports, database or primary name, a user name given before
 * a password, query parameters' names; never a password nor a query value (ioredis reads
 * `?password=`). Fails safe: a URL not of a clear shape shows as its scheme and `[REDACTED]`, and a
 * user info without a `:` (which some write for a password) as `[REDACTED]`.
 */
export function redactRedisUrl(url: string): string {
  const parts = clearParts(url);
  if (parts === undefined) {
    const scheme = KNOWN_SCHEME.exec(url.trim());
    return `${scheme?.[0] ?? ""}${REDACTED}`;
  }
  const { scheme, userinfo, hosts, path, query } = parts;
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
  return `${scheme}://${user}${hosts}${path === "/" ? "" : path}${shownQuery}`;
}

/** Whether `url` may carry a password: user info, a `password` or `sentinelPassword` parameter, or an unclear shape. */
export function mayCarryPassword(url: string): boolean {
  const parts = clearParts(url);
  if (parts === undefined) return true;
  return parts.userinfo !== undefined || /(^|&)(sentinel)?password=/i.test(parts.query ?? "");
}

/**
 * What in `url` may be a credential, for scrubbing messages (`redactText`), raw and decoded: the user
 * info whole and after its first `:`, each query value (alone and with the rest of the query after
 * it); for a URL not of a clear shape, every span after the scheme between two delimiters or an end,
 * since no one knows where its password starts or ends.
 */
export function redisUrlSecrets(url: string): string[] {
  const trimmed = url.trim();
  const parts = clearParts(trimmed);
  const raw: string[] = [];
  if (parts === undefined) {
    const rest = trimmed.replace(KNOWN_SCHEME, "");
    const cuts = [0, ...[...rest.matchAll(/[/:@?#&=[\],\s]/g)].map((match) => match.index), rest.length];
    for (const [i, start] of cuts.entries()) {
      for (const end of cuts.slice(i + 1)) {
        raw.push(rest.slice(start, end), rest.slice(start + 1, end));
      }
    }
  } else {
    const { userinfo, query } = parts;
    if (userinfo !== undefined) raw.push(userinfo, userinfo.slice(userinfo.indexOf(":") + 1));
    // A value holding an unencoded `&` reads as several pairs: each value with the pairs after it too.
    const pairs = query?.split("&") ?? [];
    for (const [i, pair] of pairs.entries()) {
      for (let j = i; j < pairs.length; j++) raw.push([pair.slice(pair.indexOf("=") + 1), ...pairs.slice(i + 1, j + 1)].join("&"));
    }
  }
  const secrets = new Set<string>();
  for (const text of raw) {
    for (const each of [text, decoded(text), decoded(text.replace(/\+/g, " "))]) if (each) secrets.add(each);
  }
  // Longest first, so a secret is not left half shown after a shorter one inside it was replaced.
  return [...secrets].sort((a, b) => b.length - a.length);
}

/** `text` percent-decoded; undefined when it is not validly encoded. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The `host[:port]` list of a clear URL, with `port` where none is given; undefined when one is invalid. */
function nodesOf(hosts: string, port: number): RedisNode[] | undefined {
  const nodes = hosts.split(",").map((entry) => {
    const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(entry);
    const number = Number(match?.[3] ?? port);
    const host = match?.[1] ?? (match?.[2] === undefined ? undefined : decoded(match[2]));
    return host !== undefined && host !== "" && number > 0 && number < 65_536 ? { host, port: number } : undefined;
  });
  return nodes.every((node) => node !== undefined) ? nodes : undefined;
}

/**
 * The set-up `url` names, or undefined when the stores do not accept it: a `redis://` or `rediss://`
 * URL with a host (ioredis parses it), or a cluster or Sentinel URL of a clear shape, taken apart here.
 */
export function redisTargetOf(url: string): RedisTarget | undefined {
  const parts = clearParts(url);
  if (parts === undefined || parts.form === "server") {
    try {
      const { protocol, hostname } = new URL(url);
      return (protocol === "redis:" || protocol === "rediss:") && hostname !== "" ? { form: "server", url } : undefined;
    } catch {
      return undefined;
    }
  }
  const tls = /^rediss/i.test(parts.scheme);
  const colon = parts.userinfo?.indexOf(":") ?? -1;
  const username = parts.userinfo === undefined ? "" : decoded(colon === -1 ? parts.userinfo : parts.userinfo.slice(0, colon));
  const password = parts.userinfo === undefined || colon === -1 ? "" : decoded(parts.userinfo.slice(colon + 1));
  if (username === undefined || password === undefined) return undefined;
  const auth = { ...(username !== "" && { username }), ...(password !== "" && { password }) };
  if (parts.form === "cluster") {
    const nodes = nodesOf(parts.hosts, 6379);
    return nodes !== undefined && parts.query === undefined ? { form: "cluster", tls, ...auth, nodes } : undefined;
  }
  const sentinels = nodesOf(parts.hosts, 26379);
  const query = new Map<string, string | undefined>();
  for (const pair of parts.query?.split("&") ?? []) {
    const equals = pair.indexOf("=");
    query.set(equals === -1 ? pair : pair.slice(0, equals), decoded(equals === -1 ? "" : pair.slice(equals + 1)));
  }
  const known = [...query.keys()].every((name) => name === "sentinelUsername" || name === "sentinelPassword");
  if (sentinels === undefined || !known || [...query.values()].includes(undefined)) return undefined;
  const sentinelUsername = query.get("sentinelUsername");
  const sentinelPassword = query.get("sentinelPassword");
  return {
    form: "sentinel",
    tls,
    ...auth,
    sentinels,
    name: parts.path.slice(1),
    ...(sentinelUsername && { sentinelUsername }),
    ...(sentinelPassword && { sentinelPassword }),
  };
}

/** Whether the Redis stores accept `url`. */
export function isRedisUrl(url: string): boolean {
  return redisTargetOf(url) !== undefined;
}
