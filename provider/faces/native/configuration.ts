/**
 * The native face's configuration, from the engine's `Configure`: the default provider gets the
 * stack config (`adplatform:baseUrl`, `adplatform:token`, `adplatform:limitsUrl`,
 * `adplatform:journalDir`) as config variables; an explicit provider resource
 * (`new adplatform.Provider("second", { baseUrl, token })`) its arguments. Both are resolved with the
 * environment as every face's settings are (`provider/configuration/settings.ts`). The engine starts
 * one plugin process per provider, so one configuration per process is one account per provider.
 */
import { plainCredentialsWarning } from "../../infrastructure";
import { type SettingKey, type Settings, type SettingsLayer, configKey, resolveSettings } from "../../configuration";
import { fromEngine } from "./engineValues";
import type { ConfigureSeen } from "./protocolFixes";

/**
 * The layers of a `Configure` request: the provider's arguments (where a secret may arrive
 * wrapped), then the config variables, whose keys the engine spells `adplatform:<key>` or, in
 * older engines, `adplatform:config:<key>`.
 */
function layersOf({ args, variables }: ConfigureSeen): SettingsLayer[] {
  const configVariable = (key: SettingKey) => variables.get(configKey(key)) ?? variables.get(configKey(key).replace(":", ":config:"));
  return [
    { origin: "stackConfig", read: (key) => fromEngine(args[key]) },
    { origin: "stackConfig", read: (key) => configVariable(key) },
  ];
}

/** The settings of a `Configure` request, resolved with `env`. */
export function settingsFromConfigure(request: ConfigureSeen, env: NodeJS.ProcessEnv = process.env): Settings {
  return resolveSettings(layersOf(request), env);
}

/**
 * `key`'s argument as the engine stored it, when it is a plain string: the engine sends a value it
 * keeps encrypted (stack config set with `--secret`, or an explicit provider's argument, which the
 * generated SDKs mark secret) wrapped as a secret.
 */
function plainArgument(key: SettingKey, args: Record<string, unknown>): { value: string; secret: false } | undefined {
  const value = args[key];
  return typeof value === "string" && value.trim() !== "" ? { value, secret: false } : undefined;
}

/** The warning for a credential of the request that arrived unencrypted, if any. */
export function plainCredentialsOf({ args }: ConfigureSeen): string | undefined {
  return plainCredentialsWarning({ token: plainArgument("token", args), limitsUrl: plainArgument("limitsUrl", args) });
}
