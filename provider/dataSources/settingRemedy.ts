/**
 * When a read fails because of a connection setting, which one, where its value came from and how to
 * change it: the author sees one message in the CLI's diagnostics, so it has to say what to do. It
 * names config keys and environment variables, never a value (the token must not reach a message).
 */
import { ApiAuthError, ApiConfigError, ApiNetworkError, CONFIG_BASE_URL, CONFIG_TOKEN, ENV_BASE_URL, ENV_TOKEN } from "../client";
import type { SettingOrigin } from "../configuration";

export type ConnectionSetting = "baseUrl" | "token";
export type { SettingOrigin };

/** The origin of each setting, when the caller knows it. */
export type SettingOrigins = Readonly<Partial<Record<ConnectionSetting, SettingOrigin>>>;

/**
 * The setting a failure points at: `token` when the platform refused it (401, 403); the one the client
 * refused before sending; `baseUrl` when its host could not be reached at all. Else undefined (a
 * missing record, a server error, a connection broken after the request may have been sent).
 */
export function settingAtFault(error: unknown): ConnectionSetting | undefined {
  if (error instanceof ApiAuthError) return "token";
  if (error instanceof ApiConfigError) {
    return error.setting === "token" || error.setting === "baseUrl" ? error.setting : undefined;
  }
  if (error instanceof ApiNetworkError && !error.mayHaveReachedServer) return "baseUrl";
  return undefined;
}

const NAMES = {
  token: { what: "token", configKey: CONFIG_TOKEN, env: ENV_TOKEN, placeholder: "<token>", secret: true },
  baseUrl: { what: "base URL", configKey: CONFIG_BASE_URL, env: ENV_BASE_URL, placeholder: "<url>", secret: false },
} as const;

/**
 * One line saying where `setting` came from and how to change it ("To fix: check the token, which
 * comes from the stack config adplatform:token ..."), in the lookup order (explicit, stack config,
 * environment), so the way it names is one that takes effect.
 */
export function remedyFor(setting: ConnectionSetting, origin: SettingOrigin | undefined): string {
  const { what, configKey, env, placeholder, secret } = NAMES[setting];
  const configSet = `\`pulumi config set ${secret ? "--secret " : ""}${configKey} ${placeholder}\``;
  const check = `To fix: check the ${what}`;
  switch (origin) {
    case "stackConfig":
      return `${check}, which comes from the stack config ${configKey} (it takes precedence over ${env}); set it with ${configSet}.`;
    case "environment":
      return `${check}, which comes from the ${env} environment variable; set it there, or with ${configSet}, which takes precedence.`;
    case "explicit":
      return (
        `${check}, which comes from configureDataSources({ ${setting} }) ` +
        `(it takes precedence over ${configKey} and ${env}); pass the right one there.`
      );
    case "account":
      return `${check} of the Account passed as the account argument (account.${setting}).`;
    default:
      return `${check}; set it with ${configSet} or the ${env} environment variable.`;
  }
}

/** `host:port` of an origin, the port written out even when it is the scheme's default. */
export function hostAndPort(origin: string): string {
  const url = new URL(origin);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}
