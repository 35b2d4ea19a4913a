/**
 * Where the CRUD code finds the platform's base URL and token: the stack configuration the engine
 * hands to `configure` (namespaces kept, secrets unwrapped: pulumi/pulumi PR #17229), else the
 * environment (`ADPLATFORM_BASE_URL` / `ADPLATFORM_TOKEN`, the client's own fallback, which also
 * raises the error naming both ways to set a missing token).
 *
 * Kept in this module's memory only: never in inputs, outputs, state or the serialized
 * `__provider` text (docs/ARCHITECTURE.md, "The serialized provider is a thin shim").
 */
import { CONFIG_BASE_URL, CONFIG_TOKEN } from "../../client";

/** What `configure` reads the stack config through (the dynamic provider's `Config`). */
export interface ConfigSource {
  get(key: string): unknown;
}

/** Options for `getApiClient`: what the stack config set; unset fields fall back to the environment. */
export interface ConfiguredConnection {
  readonly baseUrl?: string;
  readonly token?: string;
}

let configured: ConfiguredConnection = {};

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/**
 * One config value, or undefined. The plugin's `Config` throws when the engine never sent
 * `Configure` (it then reads an undefined map): that means "not set", and the environment applies.
 */
function read(config: ConfigSource, key: string): string | undefined {
  try {
    return nonEmpty(config.get(key));
  } catch {
    return undefined;
  }
}

/** Remembers the stack config's `adplatform:baseUrl` and `adplatform:token` (from `configure`). */
export function configureCredentials(config: ConfigSource): void {
  const baseUrl = read(config, CONFIG_BASE_URL);
  const token = read(config, CONFIG_TOKEN);
  configured = { ...(baseUrl ? { baseUrl } : {}), ...(token ? { token } : {}) };
}

/** The configured connection options (possibly empty: the client then reads the environment). */
export function configuredConnection(): ConfiguredConnection {
  return configured;
}
