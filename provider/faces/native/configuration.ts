/**
 * The native face's configuration: the provider's own `baseUrl`, `token` and `limitsUrl`, as the
 * engine sends them in `Configure`. The default provider gets them from the stack config
 * (`adplatform:baseUrl`, `adplatform:token`, `adplatform:limitsUrl`); an explicit provider resource
 * (`new adplatform.Provider("second", { baseUrl, token })`) from its arguments. The engine starts one
 * plugin process per provider, so one connection per process is one account per provider.
 *
 * Unset values fall back to the environment (`ADPLATFORM_BASE_URL` / `ADPLATFORM_TOKEN`,
 * `ADPLATFORM_LIMITS_URL`), which the client resolves. The token stays in this module's memory:
 * never in inputs, outputs or state.
 */
import { configureLimitsUrl } from "../../client/limiterRegistry";
import { plainCredentialsWarning } from "../../client/plainCredentials";
import type { PlatformConnection } from "../../resources/core/context";
import { engineWarn } from "./engineLog";
import { fromEngine } from "./engineValues";
import { PACKAGE_NAME } from "./tokens";

/** The provider's configuration keys, as the schema declares them. */
export const CONFIG_KEYS = ["baseUrl", "token", "limitsUrl"] as const;
/** One configuration key. */
export type ConfigKey = (typeof CONFIG_KEYS)[number];

let connection: PlatformConnection = {};

const nonEmpty = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/**
 * The value of `key` in a `Configure` request: from `args` (the provider's inputs, where a secret
 * may arrive wrapped), else from `variables`, whose keys the engine spells `adplatform:<key>` or,
 * in older engines, `adplatform:config:<key>`.
 */
function configValue(key: ConfigKey, args: Record<string, unknown>, variables: ReadonlyMap<string, string>): string | undefined {
  const fromArgs = nonEmpty(fromEngine(args[key]));
  if (fromArgs !== undefined) return fromArgs;
  return nonEmpty(variables.get(`${PACKAGE_NAME}:${key}`)) ?? nonEmpty(variables.get(`${PACKAGE_NAME}:config:${key}`));
}

/**
 * `key`'s argument as the engine stored it, when it is a plain string: the engine sends a value it
 * keeps encrypted (stack config set with `--secret`, or an explicit provider's argument, which the
 * generated SDKs mark secret) wrapped as a secret.
 */
function plainArgument(key: ConfigKey, args: Record<string, unknown>): { value: string; secret: false } | undefined {
  const value = args[key];
  return typeof value === "string" && value.trim() !== "" ? { value, secret: false } : undefined;
}

let warnedPlain = false;

/**
 * Takes the configuration of a `Configure` request: remembers the connection, hands on the limits
 * URL, and warns once per process when a credential arrived unencrypted (`warn`: tests).
 */
export function configureFromRequest(
  args: Record<string, unknown>,
  variables: ReadonlyMap<string, string>,
  warn: (message: string) => unknown = (message) => engineWarn(`adplatform: ${message}`, undefined),
): void {
  const baseUrl = configValue("baseUrl", args, variables);
  const token = configValue("token", args, variables);
  connection = { ...(baseUrl ? { baseUrl } : {}), ...(token ? { token } : {}) };
  configureLimitsUrl(configValue("limitsUrl", args, variables));
  const warning = plainCredentialsWarning({ token: plainArgument("token", args), limitsUrl: plainArgument("limitsUrl", args) });
  if (warning !== undefined && !warnedPlain) {
    warnedPlain = true;
    void warn(warning);
  }
}

/** The configured connection (possibly empty: the client then reads the environment). */
export function configuredConnection(): PlatformConnection {
  return connection;
}
