/**
 * What to fix when a read fails because of a connection setting: which setting is at fault (a token
 * the platform refused, a base URL the client refuses or whose host cannot be reached), where the
 * value in use came from, and how to change it. A Pulumi program's author sees the failure as one
 * message in the CLI's diagnostics, so the message itself has to say what to do.
 *
 * The remedy names config keys and environment variables, never a value: the token must not reach
 * a message, and the failure itself already names the host.
 */
import { ApiAuthError, ApiConfigError, ApiNetworkError, CONFIG_BASE_URL, CONFIG_TOKEN, ENV_BASE_URL, ENV_TOKEN } from "../client";

/** A connection setting of the data sources. */
export type ConnectionSetting = "baseUrl" | "token";

import type { SettingOrigin } from "../configuration";

export type { SettingOrigin };

/** The origin of each setting, when the caller knows it. */
export type SettingOrigins = Readonly<Partial<Record<ConnectionSetting, SettingOrigin>>>;

/**
 * The setting a failure points at, or undefined when it points at none (a missing record, a
 * server error, a connection that broke after the request may have been sent):
 * - the platform refused the token (401, 403): `token`;
 * - the client refused a setting before sending (plain http:// to a host that is not loopback, a
 *   token that cannot go in a header): that setting;
 * - the base URL's host could not be reached at all (refused, not found, connect timeout): `baseUrl`.
 */
export function settingAtFault(error: unknown): ConnectionSetting | undefined {
  if (error instanceof ApiAuthError) return "token";
  if (error instanceof ApiConfigError) {
    return error.setting === "token" || error.setting === "baseUrl" ? error.setting : undefined;
  }
  if (error instanceof ApiNetworkError && !error.mayHaveReachedServer) return "baseUrl";
  return undefined;
}

interface SettingNames {
  readonly what: string;
  readonly configKey: string;
  readonly env: string;
  readonly placeholder: string;
  readonly secret: boolean;
  readonly explicitArg: string;
}

const NAMES: Readonly<Record<ConnectionSetting, SettingNames>> = {
  token: { what: "token", configKey: CONFIG_TOKEN, env: ENV_TOKEN, placeholder: "<token>", secret: true, explicitArg: "token" },
  baseUrl: {
    what: "base URL",
    configKey: CONFIG_BASE_URL,
    env: ENV_BASE_URL,
    placeholder: "<url>",
    secret: false,
    explicitArg: "baseUrl",
  },
};

/**
 * One line saying where `setting` came from and how to change it, naming both its config key and
 * its environment variable, e.g. "To fix: check the token, which comes from the stack config
 * adplatform:token (it takes precedence over ADPLATFORM_TOKEN); set it with `pulumi config set
 * --secret adplatform:token <token>`." It follows the order the values are looked up in (explicit,
 * stack config, environment), so the way it names is one that takes effect.
 */
export function remedyFor(setting: ConnectionSetting, origin: SettingOrigin | undefined): string {
  const n = NAMES[setting];
  const configSet = `\`pulumi config set ${n.secret ? "--secret " : ""}${n.configKey} ${n.placeholder}\``;
  switch (origin) {
    case "stackConfig":
      return (
        `To fix: check the ${n.what}, which comes from the stack config ${n.configKey} (it takes precedence over ${n.env}); ` +
        `set it with ${configSet}.`
      );
    case "environment":
      return (
        `To fix: check the ${n.what}, which comes from the ${n.env} environment variable; ` +
        `set it there, or with ${configSet}, which takes precedence.`
      );
    case "explicit":
      return (
        `To fix: check the ${n.what}, which comes from configureDataSources({ ${n.explicitArg} }) ` +
        `(it takes precedence over ${n.configKey} and ${n.env}); pass the right one there.`
      );
    case "account":
      return `To fix: check the ${n.what} of the Account passed as the account argument (account.${n.explicitArg}).`;
    default:
      return `To fix: check the ${n.what}; set it with ${configSet} or the ${n.env} environment variable.`;
  }
}

/**
 * `host:port` of an origin (`http://127.0.0.1:4010` gives `127.0.0.1:4010`), the port written out
 * even when it is the scheme's default, so a refused connection names exactly where it went.
 */
export function hostAndPort(origin: string): string {
  const url = new URL(origin);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}
