/**
 * The warning for credentials set in the stack config without `--secret`. Pulumi keeps a plain config
 * value in clear in the stack's settings and, as the engine hands the config to the provider as its
 * inputs, in the dynamic face's state too; only `--secret` makes the engine encrypt them. The native
 * face's `CheckConfig` marks them secret itself (`faces/native/checkConfig.ts`).
 */
import { configKey } from "../configuration";
import { mayCarryPassword } from "./redis";

/** Credential settings as read, each with whether the stack config marks it secret. */
export interface ConfigCredentials {
  readonly token?: { readonly value: string; readonly secret: boolean };
  readonly limitsUrl?: { readonly value: string; readonly secret: boolean };
}

/** The warning for the credentials set without `--secret`, or undefined when there is none. */
export function plainCredentialsWarning({ token, limitsUrl }: ConfigCredentials): string | undefined {
  const plain: string[] = [];
  if (token !== undefined && !token.secret) plain.push(configKey("token"));
  if (limitsUrl !== undefined && !limitsUrl.secret && mayCarryPassword(limitsUrl.value)) plain.push(configKey("limitsUrl"));
  if (plain.length === 0) return undefined;
  return (
    `${plain.join(" and ")} ${plain.length === 1 ? "is" : "are"} set in the stack config without --secret, so Pulumi ` +
    `keeps ${plain.length === 1 ? "it" : "them"} in clear in the stack's settings and state. Set ` +
    `${plain.length === 1 ? "it" : "them"} again with ` +
    `${plain.map((key) => `\`pulumi config set --secret ${key} <value>\``).join(" and ")}.`
  );
}
