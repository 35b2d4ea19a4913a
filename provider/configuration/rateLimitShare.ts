/** `rateLimitShare`: the fraction of every window this provider spends (the `share` of `../limiter/limiterModel.ts`). */
import { SETTINGS, type Settings, configKey } from "./settings";

/** A decimal number, no exponent, sign or hex: what a user types for a fraction. */
const DECIMAL = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/;

/** Why `value` (absent is fine) is not a usable `rateLimitShare`, naming it `where`. */
export function rateLimitShareRefusal(value: unknown, where: string = configKey("rateLimitShare")): string | undefined {
  if (value === undefined) return undefined;
  const share = typeof value === "number" ? value : typeof value === "string" && DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (share > 0 && share <= 1) return undefined;
  return `${where} must be a number above 0 and at most 1, the fraction of the account's rate limits to spend (e.g. 0.5)`;
}

/** What is wrong with the share of `settings`, naming it where it was set. */
export function rateLimitShareFailure(settings: Pick<Settings, "rateLimitShare" | "origins">): string | undefined {
  const where = {
    stackConfig: configKey("rateLimitShare"),
    explicit: "rateLimitShare",
    environment: SETTINGS.rateLimitShare.env,
    account: "account.rateLimitShare",
  }[settings.origins.rateLimitShare ?? "stackConfig"];
  return rateLimitShareRefusal(settings.rateLimitShare, where);
}
