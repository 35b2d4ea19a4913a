/**
 * The `rateLimitShare` setting: the fraction of every window of the account's rate limits this
 * provider spends (the `share` of the limiter's model, `../client/limiterModel.ts`), leaving the
 * rest to the account's other users.
 */
import { SETTINGS, type Settings, configKey } from "./settings";

/** A decimal number, no exponent, sign or hex: what a user types for a fraction. */
const DECIMAL = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/;

/** Why `value` is not a usable `rateLimitShare`, naming the stack config key, or undefined when it is (absent included). */
export function rateLimitShareRefusal(value: unknown): string | undefined {
  return refusalNaming(configKey("rateLimitShare"), value);
}

/** Why `value` is not a usable share, naming the setting as `where` (the message is built here, never rewritten). */
function refusalNaming(where: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const share = typeof value === "number" ? value : typeof value === "string" && DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (share > 0 && share <= 1) return undefined;
  return `${where} must be a number above 0 and at most 1, the fraction of the account's rate limits to spend (e.g. 0.5)`;
}

/**
 * What is wrong with the share of `settings`, naming it where it was set (the stack config key, a
 * provider's argument, the environment variable, an `Account`'s field), or undefined when it is usable.
 */
export function rateLimitShareFailure(settings: Pick<Settings, "rateLimitShare" | "origins">): string | undefined {
  const where = {
    stackConfig: configKey("rateLimitShare"),
    explicit: "rateLimitShare",
    environment: SETTINGS.rateLimitShare.env,
    account: "account.rateLimitShare",
  }[settings.origins.rateLimitShare ?? "stackConfig"];
  return refusalNaming(where, settings.rateLimitShare);
}

/** The share of `settings` (1 when it is not set). Throws naming the setting where it was set when it is not usable. */
export function rateLimitShareOf(settings: Pick<Settings, "rateLimitShare" | "origins">): number {
  const failure = rateLimitShareFailure(settings);
  if (failure !== undefined) throw new RangeError(failure);
  return settings.rateLimitShare === undefined ? 1 : Number(settings.rateLimitShare);
}
