/**
 * Credentials of the data sources, read in the Pulumi program's process.
 *
 * Data sources are plain async functions in the program process (invokes are not supported for
 * dynamic providers), so they cannot receive the
 * provider's `configure` call the way the resources' CRUD code does. They read the same settings, in this order:
 *
 * 1. values given to `configureDataSources(...)` in this process (scripts and tests),
 * 2. the stack configuration `adplatform:baseUrl` and `adplatform:token`
 *    (`pulumi config set adplatform:baseUrl https://...`, `pulumi config set --secret adplatform:token ...`),
 * 3. the environment variables `ADPLATFORM_BASE_URL` and `ADPLATFORM_TOKEN`.
 *
 * Each setting is looked up on its own, so a base URL in the stack config and a token in the
 * environment work together; `adplatform:limitsUrl` and `adplatform:journalDir` likewise (the
 * resolution is every face's: `provider/configuration/settings.ts`). Settings are read at every
 * call (cheap), so a program that sets the environment late still works.
 *
 * `configureDataSources` keeps its values in this module: that is its public contract (a setting
 * for the whole process, ahead of the stack config), and they are one of the places resolved from,
 * not the resolved settings.
 */
import * as pulumi from "@pulumi/pulumi";
import { CONFIG_BASE_URL, CONFIG_TOKEN, ENV_BASE_URL, ENV_TOKEN } from "../provider/client";
import { CONFIG_LIMITS_URL } from "../provider/client/connection";
import { plainCredentialsWarning } from "../provider/infrastructure";
import { rateLimitShareFailure } from "../provider/configuration/rateLimitShare";
import { nonEmpty, resolveSettings, stackConfigLayer, valuesLayer, type Settings } from "../provider/configuration/settings";
import type { ConnectionSettings } from "../provider/dataSources";

/** Settings a program or script may give explicitly. */
export interface DataSourceSettings {
  /** `{base_url}` of the API, e.g. `https://api.example.com` or `http://127.0.0.1:8080` for the simulator. */
  baseUrl?: string;
  /** Access token sent as `Authorization: Bearer <token>` (spec, Authentication 1). */
  token?: string;
}

let explicit: DataSourceSettings = {};

/**
 * Sets the base URL and/or token the data sources of this process use, ahead of the stack config and
 * the environment. Meant for scripts and tests; in a Pulumi program prefer the stack config, which
 * the resources read too (this call does not reach the resources: their CRUD code runs in another
 * process). Pass `{}` to go back to the stack config and the environment.
 */
export function configureDataSources(settings: DataSourceSettings): void {
  explicit = { ...settings };
}

/**
 * Stack config value by full key (`adplatform:token`), or undefined when unset. The runtime reads
 * the configuration the language host passed to this run; outside a Pulumi program it is empty.
 * The raw read does not wrap a secret in an Output: the token is used, never exported.
 */
function stackConfig(fullKey: string): string | undefined {
  try {
    return nonEmpty(pulumi.runtime.getConfig(fullKey));
  } catch {
    // Defensive: an SDK version that refuses to read config outside a program.
    return undefined;
  }
}

/**
 * The settings of this program's process: `configureDataSources(...)`'s, then the stack config,
 * then the environment.
 */
export function programSettings(): Settings {
  return resolveSettings([valuesLayer("explicit", explicit), stackConfigLayer(stackConfig)]);
}

/** Why a setting is missing, naming every way to provide it. */
function missing(what: "token" | "base URL", configKey: string, env: string): string {
  const secret = what === "token" ? "--secret " : "";
  return (
    `no API ${what} configured: set it with \`pulumi config set ${secret}${configKey} <value>\`, ` +
    `the ${env} environment variable, or configureDataSources({ ${what === "token" ? "token" : "baseUrl"} })`
  );
}

/**
 * Result of looking the settings up: the base URL and token to read with (the read engine resolves
 * them as the client does) and where each came from, or the reasons there are none.
 */
export type ConnectionResolution =
  | { readonly ok: true; readonly connection: ConnectionSettings & { readonly baseUrl: string; readonly token: string } }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * The connection the data sources use now, from explicit settings, stack config, then environment,
 * with the origin of each setting (a failure caused by one then says where to change it), and the
 * limits URL their client shares the account's limits through. Never throws: a missing setting is
 * reported in `problems` so the caller can name itself.
 */
export function resolveDataSourceConnection(): ConnectionResolution {
  const settings = programSettings();
  const { baseUrl, token, limitsUrl, rateLimitShare, origins } = settings;
  const problems: string[] = [];
  if (baseUrl === undefined) problems.push(missing("base URL", CONFIG_BASE_URL, ENV_BASE_URL));
  if (token === undefined) problems.push(missing("token", CONFIG_TOKEN, ENV_TOKEN));
  const shareFailure = rateLimitShareFailure(settings);
  if (shareFailure !== undefined) problems.push(shareFailure);
  if (baseUrl === undefined || token === undefined || shareFailure !== undefined) return { ok: false, problems };
  return {
    ok: true,
    connection: {
      baseUrl,
      token,
      ...(limitsUrl === undefined ? {} : { limitsUrl }),
      ...(rateLimitShare === undefined ? {} : { rateLimitShare: Number(rateLimitShare) }),
      origins: { ...(origins.baseUrl ? { baseUrl: origins.baseUrl } : {}), ...(origins.token ? { token: origins.token } : {}) },
    },
  };
}

/** A stack config value with whether it is set with `--secret`, or undefined when unset. */
function configWithSecrecy(fullKey: string): { value: string; secret: boolean } | undefined {
  const value = stackConfig(fullKey);
  // `isConfigSecret` is the runtime's own (marked internal, so not in its typings): an SDK without
  // it cannot tell, and is taken to have the value secret rather than warn wrongly.
  const runtime = pulumi.runtime as typeof pulumi.runtime & { isConfigSecret?: (key: string) => boolean };
  return value === undefined ? undefined : { value, secret: runtime.isConfigSecret?.(fullKey) ?? true };
}

let warnedPlain = false;

/**
 * Warns once per program when the stack config holds `adplatform:token`, or an
 * `adplatform:limitsUrl` with a password, without `--secret`. The program is where this shows: the
 * dynamic face's plugin receives the config with secrets already unwrapped, and cannot tell. The
 * value itself cannot be kept out of the state from here: the engine stores the whole stack config
 * as the inputs of the default `pulumi-nodejs` provider before the program runs.
 */
export function warnPlainCredentials(warn: (message: string) => unknown = (message) => pulumi.log.warn(`adplatform: ${message}`)): void {
  if (warnedPlain) return;
  const warning = plainCredentialsWarning({ token: configWithSecrecy(CONFIG_TOKEN), limitsUrl: configWithSecrecy(CONFIG_LIMITS_URL) });
  if (warning === undefined) return;
  warnedPlain = true;
  void warn(warning);
}
