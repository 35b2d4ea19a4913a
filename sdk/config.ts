/**
 * Credentials of the data sources, read in the Pulumi program's process.
 *
 * Data sources are plain async functions in the program process (invokes are not supported for
 * dynamic providers, DESIGN.md), so they cannot receive the provider's `configure` call the way the
 * resources' CRUD code does. They read the same settings, in this order:
 *
 * 1. values given to `configureDataSources(...)` in this process (scripts and tests),
 * 2. the stack configuration `adplatform:baseUrl` and `adplatform:token`
 *    (`pulumi config set adplatform:baseUrl https://...`, `pulumi config set --secret adplatform:token ...`),
 * 3. the environment variables `ADPLATFORM_BASE_URL` and `ADPLATFORM_TOKEN`.
 *
 * Each setting is looked up on its own, so a base URL in the stack config and a token in the
 * environment work together. Settings are read at every call (cheap), so a program that sets the
 * environment late still works.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Connection } from "../provider/dataSources/connection";

/** Namespace of the stack configuration keys (`adplatform:baseUrl`, `adplatform:token`). */
export const CONFIG_NAMESPACE = "adplatform";
/** Environment variable holding the base URL, used when the stack config has none. */
export const BASE_URL_ENV = "ADPLATFORM_BASE_URL";
/** Environment variable holding the access token, used when the stack config has none. */
export const TOKEN_ENV = "ADPLATFORM_TOKEN";

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

/** Stack config value, or undefined outside a Pulumi program or when the key is unset. */
function stackConfig(key: string): string | undefined {
  try {
    // Outside a program `pulumi.Config` reads an empty configuration; the try guards against SDK
    // versions that throw there instead.
    return nonEmpty(new pulumi.Config(CONFIG_NAMESPACE).get(key));
  } catch {
    return undefined;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** Why a setting is missing, naming every way to provide it. */
function missing(setting: "baseUrl" | "token", env: string): string {
  const secret = setting === "token" ? "--secret " : "";
  return (
    `no API ${setting === "token" ? "token" : "base URL"} configured: set it with ` +
    `\`pulumi config set ${secret}${CONFIG_NAMESPACE}:${setting} <value>\` or the ${env} environment variable`
  );
}

/** Result of resolving the settings: a connection, or the reasons none could be made. */
export type ConnectionResolution =
  | { readonly ok: true; readonly connection: Connection }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * The connection the data sources use now, from explicit settings, stack config, then environment.
 * Never throws: a missing setting is reported in `problems` so the caller can name itself.
 */
export function resolveDataSourceConnection(): ConnectionResolution {
  const baseUrl =
    nonEmpty(explicit.baseUrl) ?? stackConfig("baseUrl") ?? nonEmpty(process.env[BASE_URL_ENV]);
  const token = nonEmpty(explicit.token) ?? stackConfig("token") ?? nonEmpty(process.env[TOKEN_ENV]);
  const problems: string[] = [];
  if (baseUrl === undefined) problems.push(missing("baseUrl", BASE_URL_ENV));
  if (token === undefined) problems.push(missing("token", TOKEN_ENV));
  if (baseUrl === undefined || token === undefined) return { ok: false, problems };
  return { ok: true, connection: { baseUrl, token } };
}
