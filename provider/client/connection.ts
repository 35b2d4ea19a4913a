/** Where the client sends requests and with which token: options, then the environment. Refuses set-ups that would leak the token. */
import { inspect } from "node:util";
import { SETTINGS, configKey } from "../configuration";
import { ApiConfigError } from "./errors";
import type { Env } from "./timeouts";

// The settings' names, from their one description (`provider/configuration/settings.ts`).
export const ENV_BASE_URL = SETTINGS.baseUrl.env;
export const ENV_TOKEN = SETTINGS.token.env;
export const CONFIG_BASE_URL = configKey("baseUrl");
export const CONFIG_TOKEN = configKey("token");
export const CONFIG_LIMITS_URL = configKey("limitsUrl");

/** Inputs of `resolveConnection`; empty strings count as unset. */
export interface ConnectionOptions {
  /** `{base_url}` of the spec, e.g. `https://api.example.com`; may carry a path prefix. */
  readonly baseUrl?: string;
  /** Sent as `Authorization: Bearer <token>` (spec, Authentication 1). */
  readonly token?: string;
  /** `process.env` by default. */
  readonly env?: Env;
}

/** A resolved connection; `token` is not enumerable and inspect redacts it, so logging cannot leak it. */
export interface Connection {
  /** Normalised: no trailing slash, query or credentials. */
  readonly baseUrl: string;
  /** `scheme://host[:port]`: the key of the shared pool. */
  readonly origin: string;
  /** `""` or `/prefix`, put before every operation path. */
  readonly basePath: string;
  readonly token: string;
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** `localhost`, 127.0.0.0/8, `::1`, `::ffff:127.x.y.z`; not `*.localhost`, whose resolution depends on the resolver. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost") return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  // WHATWG URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1; the first byte 0x7f is 127.
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host) || /^::ffff:127\./.test(host);
}

// RFC 9110 field values: visible ASCII only. Anything else could split or corrupt the header.
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/**
 * Base URL and token: `options` first, then the environment. @throws ApiConfigError when either is
 * missing or unusable, or the token would go over plain `http://` to a host not loopback.
 */
export function resolveConnection(options: ConnectionOptions = {}): Connection {
  const env = options.env ?? process.env;
  const token = present(options.token) ? options.token : env[ENV_TOKEN];
  const rawBaseUrl = present(options.baseUrl) ? options.baseUrl : env[ENV_BASE_URL];

  if (!present(token)) {
    throw new ApiConfigError(
      "token",
      `no API token: set the Pulumi config "${CONFIG_TOKEN}" as a secret ` +
        `(pulumi config set --secret ${CONFIG_TOKEN} <token>) or the environment variable ${ENV_TOKEN}`,
    );
  }
  if (!TOKEN_CHARS.test(token.trim())) {
    throw new ApiConfigError("token", "the API token contains spaces, control or non-ASCII characters; it cannot be sent in a header", {
      secrets: [token],
    });
  }

  // Decision (not shown in spec): the spec names `{base_url}` but gives no value, so there is no
  // default; a missing base URL is a configuration error, like a missing token.
  if (!present(rawBaseUrl)) {
    throw new ApiConfigError(
      "baseUrl",
      `no API base URL: set the Pulumi config "${CONFIG_BASE_URL}" or the environment variable ${ENV_BASE_URL}`,
    );
  }

  const refuse = (message: string) => new ApiConfigError("baseUrl", message);
  let url: URL;
  try {
    url = new URL(rawBaseUrl.trim());
  } catch {
    throw new ApiConfigError("baseUrl", "the API base URL is not a valid absolute URL", { secrets: [token] });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse(`the API base URL must use https:// (got ${url.protocol}//)`);
  // The URL itself is not echoed: it holds a credential.
  if (url.username || url.password) throw refuse("the API base URL must not contain credentials; set the token instead");
  if (url.search || url.hash) throw refuse("the API base URL must not have a query or fragment");
  // Over plain http anyone on the path can read and reuse a bearer token; only loopback (the simulator) is exempt.
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw refuse(
      `refusing to send the API token over plain http:// to ${url.host}: use https://, ` +
        "or a loopback address (localhost, 127.0.0.0/8, ::1) for the simulator",
    );
  }

  const basePath = url.pathname.replace(/\/+$/, "");
  return makeConnection({ baseUrl: `${url.origin}${basePath}`, origin: url.origin, basePath }, token.trim());
}

/** What the check of one setting pairs it with, so a problem is reported against its own setting. */
const ACCEPTED: Readonly<Record<"baseUrl" | "token", string>> = { baseUrl: "https://api.example.invalid", token: "placeholder" };

/** Why the client refuses `value` for `setting` (`resolveConnection`'s message), or undefined; no environment. */
export function connectionRefusal(setting: "baseUrl" | "token", value: string): string | undefined {
  try {
    resolveConnection({ ...ACCEPTED, [setting]: value, env: {} });
    return undefined;
  } catch (error) {
    if (error instanceof ApiConfigError && error.setting === setting) return error.message;
    if (error instanceof ApiConfigError) return undefined;
    throw error;
  }
}

function makeConnection(fields: Omit<Connection, "token">, token: string): Connection {
  const connection = { ...fields } as Connection;
  Object.defineProperty(connection, "token", { value: token, enumerable: false });
  Object.defineProperty(connection, inspect.custom, {
    value: () => `Connection { baseUrl: '${fields.baseUrl}', token: [REDACTED] }`,
    enumerable: false,
  });
  return Object.freeze(connection);
}
