/**
 * An account a program names explicitly (the SDK's `Account`): what is wrong with one, and which account
 * it is. No fallback to the environment; a connection's refusals apply. Reasons never hold a value (the
 * token, or a base URL carrying a credential).
 */
import { rateLimitShareRefusal } from "../configuration";
import { connectionRefusal, resolveConnection } from "./connection";

/** As they arrive: any may be missing or mistyped. */
export interface ExplicitAccount {
  readonly baseUrl?: unknown;
  readonly token?: unknown;
  /** A stable name (see `accountChanges`). */
  readonly name?: unknown;
  readonly rateLimitShare?: unknown;
}

export type ExplicitAccountField = keyof ExplicitAccount;

/** The field at fault (none: the account itself) and why. */
export interface ExplicitAccountProblem {
  readonly field?: ExplicitAccountField;
  readonly reason: string;
}

const isText = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/** Every problem of `account` (empty: usable). `skip` names fields not known yet (a preview), checked on the run that knows them. */
export function explicitAccountProblems(
  account: unknown,
  skip: (field: ExplicitAccountField) => boolean = () => false,
): ExplicitAccountProblem[] {
  if (account === null || typeof account !== "object" || Array.isArray(account)) {
    return [{ reason: "must be an Account (new Account({ baseUrl, token }))" }];
  }
  const { baseUrl, token, name, rateLimitShare } = account as ExplicitAccount;
  const problems: ExplicitAccountProblem[] = [];
  const required = [
    ["baseUrl", baseUrl, "is required: the account's API base URL, e.g. https://api.example.com"],
    ["token", token, "is required: the account's API token (the Account keeps it as a secret)"],
  ] as const;
  for (const [field, value, missing] of required) {
    if (skip(field)) continue;
    const reason = isText(value) ? connectionRefusal(field, value) : missing;
    if (reason !== undefined) problems.push({ field, reason });
  }
  if (!skip("name") && name !== undefined && !isText(name)) {
    problems.push({ field: "name", reason: "must be a non-empty string when given" });
  }
  if (!skip("rateLimitShare") && rateLimitShareRefusal(rateLimitShare) !== undefined) {
    problems.push({
      field: "rateLimitShare",
      reason: "must be a number above 0 and at most 1 when given, the fraction of the account's rate limits to spend",
    });
  }
  return problems;
}

/** What identifies an account: base URL (normalised; undefined when refused) and name, not the token, which may rotate. */
export interface AccountIdentity {
  readonly baseUrl?: string;
  readonly name?: string;
}

export type AccountIdentityField = keyof AccountIdentity;

/** `baseUrl` as the client resolves it, or undefined. */
export function normalisedBaseUrl(baseUrl: unknown): string | undefined {
  if (!isText(baseUrl)) return undefined;
  try {
    // Only the base URL is judged: any acceptable token stands in for the account's.
    return resolveConnection({ baseUrl, token: "placeholder", env: {} }).baseUrl;
  } catch {
    return undefined;
  }
}

export function explicitAccountIdentity(account: ExplicitAccount): AccountIdentity {
  return { baseUrl: normalisedBaseUrl(account.baseUrl), ...(isText(account.name) ? { name: account.name } : {}) };
}

/**
 * The fields by which `b` is another account than `a`: the base URL when they differ or either is
 * unresolved; the name only when both have one. Decision (not shown in spec): the API does not say
 * whose a token is (spec, Authentication 2), so accounts on one base URL are told apart by name.
 */
export function accountChanges(a: AccountIdentity, b: AccountIdentity): AccountIdentityField[] {
  const changes: AccountIdentityField[] = [];
  if (a.baseUrl === undefined || a.baseUrl !== b.baseUrl) changes.push("baseUrl");
  if (a.name !== undefined && b.name !== undefined && a.name !== b.name) changes.push("name");
  return changes;
}
