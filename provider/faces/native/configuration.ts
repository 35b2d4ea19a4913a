/**
 * The native face's configuration, from the engine's `Configure`: the default provider gets the stack
 * config as config variables, an explicit provider resource its arguments; both are resolved with the
 * environment. The engine starts one plugin process per provider: one account per process.
 */
import { plainCredentialsWarning } from "../../infrastructure";
import { type SettingKey, type Settings, type SettingsLayer, configKey, resolveSettings } from "../../configuration";
import { fromEngine } from "./engineValues";
import type { ConfigureSeen } from "./protocolFixes";

/** The provider's arguments (a secret may arrive wrapped), then the config variables (`adplatform:config:<key>` in older engines). */
export function settingsFromConfigure({ args, variables }: ConfigureSeen, env: NodeJS.ProcessEnv = process.env): Settings {
  const variable = (key: SettingKey) => variables.get(configKey(key)) ?? variables.get(configKey(key).replace(":", ":config:"));
  const layers: SettingsLayer[] = [
    { origin: "stackConfig", read: (key) => fromEngine(args[key]) },
    { origin: "stackConfig", read: variable },
  ];
  return resolveSettings(layers, env);
}

/**
 * The warning for a credential that arrived unencrypted, if any: a plain string argument (the engine
 * sends a value it keeps encrypted, `--secret` config or an explicit provider's argument, wrapped).
 */
export function plainCredentialsOf({ args }: ConfigureSeen): string | undefined {
  const plain = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? { value, secret: false as const } : undefined);
  return plainCredentialsWarning({ token: plain(args.token), limitsUrl: plain(args.limitsUrl) });
}
