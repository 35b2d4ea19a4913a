/**
 * The dynamic face's configuration: `configure`, which the dynamic-provider plugin calls once per
 * serialized provider (once per kind) with the stack configuration, and the platform connection it
 * leaves for every later call of every kind.
 *
 * The stack config arrives with namespaces kept and secrets unwrapped (pulumi/pulumi PR #17229).
 * Unset values fall back to the environment (`ADPLATFORM_BASE_URL` / `ADPLATFORM_TOKEN`), which the
 * client resolves and which also raises the error naming both ways to set a missing token. The
 * config's `adplatform:limitsUrl` goes to the client's limiter registry (else
 * `ADPLATFORM_LIMITS_URL` applies), and `adplatform:journalDir` to the create journal (else
 * `ADPLATFORM_JOURNAL_DIR` applies).
 *
 * Kept in this module's memory only: never in inputs, outputs, state or the serialized `__provider`
 * text, which must hold no credentials (docs/ARCHITECTURE.md, "The serialized provider is a thin
 * shim").
 */
import type * as pulumi from "@pulumi/pulumi";
import { CONFIG_BASE_URL, CONFIG_TOKEN } from "../../client";
import { CONFIG_LIMITS_URL } from "../../client/connection";
import { configureLimitsUrl } from "../../client/limiterRegistry";
import { CONFIG_JOURNAL_DIR, configureJournalDir } from "../../journal";
import type { PlatformConnection } from "../../resources/core/context";

/** What `configure` reads the stack config through (the dynamic provider's `Config`). */
export interface ConfigSource {
  get(key: string): unknown;
}

let configured: PlatformConnection = {};

const nonEmpty = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

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

/**
 * Remembers the stack config's `adplatform:baseUrl` and `adplatform:token`, and hands
 * `adplatform:limitsUrl` to the limiter registry.
 */
export function configureCredentials(config: ConfigSource): void {
  const baseUrl = read(config, CONFIG_BASE_URL);
  const token = read(config, CONFIG_TOKEN);
  configured = { ...(baseUrl ? { baseUrl } : {}), ...(token ? { token } : {}) };
  configureLimitsUrl(read(config, CONFIG_LIMITS_URL));
  configureJournalDir(read(config, CONFIG_JOURNAL_DIR));
}

/** The configured connection (possibly empty: the client then reads the environment). */
export function configuredConnection(): PlatformConnection {
  return configured;
}

/** The provider's `configure`: reads `adplatform:baseUrl` and `adplatform:token` from the stack config. */
export async function configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureCredentials(request.config);
}
