/**
 * An account a program names explicitly (the SDK's `Account`: a base URL, a token and optionally a
 * stable name), as opposed to the stack config or environment: what is wrong with one, and which
 * account it is.
 *
 * An explicit account has no fallback: its base URL and token are both required, and the same
 * refusals as any connection apply (https://, or plain http:// only to loopback; a token that fits
 * in a header), so a bad `Account` is refused before anything is sent. Reasons never hold a value:
 * the token must not reach a message, and a base URL may carry a credential.
 */
import { rateLimitShareRefusal } from "../configuration";
import { connectionRefusal, resolveConnection, type Connection } from "./connection";

/** The fields of an explicit account, as they arrive (any of them may be missing or mistyped). */
export interface ExplicitAccount {
  /** `{base_url}` of the account's API. */
  readonly baseUrl?: unknown;
  /** The account's access token. */
  readonly token?: unknown;
  /** A stable name of the account, optional (see `accountChanges`). */
  readonly name?: unknown;
  /** The share of the account's rate limits to spend, optional (the `rateLimitShare` setting's for this account). */
  readonly rateLimitShare?: unknown;
}

/** One field of an explicit account. */
export type ExplicitAccountField = "baseUrl" | "token" | "name" | "rateLimitShare";

/** What is wrong with an explicit account: the field at fault (none: the account itself) and why. */
export interface ExplicitAccountProblem {
  readonly field?: ExplicitAccountField;
  readonly reason: string;
}

const isText = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/**
 * Every problem of `account`, field by field (empty when it is usable). `skip` names fields whose
 * value is not known yet (a preview): they are checked on the run that knows them.
 */
export function explicitAccountProblems(
  account: unknown,
  skip: (field: ExplicitAccountField) => boolean = () => false,
): ExplicitAccountProblem[] {
  if (account === null || typeof account !== "object" || Array.isArray(account)) {
    return [{ reason: "must be an Account (new Account({ baseUrl, token }))" }];
  }
  const { baseUrl, token, name, rateLimitShare } = account as ExplicitAccount;
  const problems: ExplicitAccountProblem[] = [];
  if (!skip("baseUrl")) {
    if (!isText(baseUrl)) {
      problems.push({ field: "baseUrl", reason: "is required: the account's API base URL, e.g. https://api.example.com" });
    } else {
      const reason = connectionRefusal("baseUrl", baseUrl);
      if (reason !== undefined) problems.push({ field: "baseUrl", reason });
    }
  }
  if (!skip("token")) {
    if (!isText(token)) {
      problems.push({ field: "token", reason: "is required: the account's API token (the Account keeps it as a secret)" });
    } else {
      const reason = connectionRefusal("token", token);
      if (reason !== undefined) problems.push({ field: "token", reason });
    }
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

/**
 * The resolved connection of a valid explicit account (no environment fallback).
 * @throws ApiConfigError naming the setting when it is not usable.
 */
export function explicitAccountConnection(account: ExplicitAccount): Connection {
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return resolveConnection({ baseUrl: text(account.baseUrl), token: text(account.token), env: {} });
}

/**
 * What identifies an account: the normalised base URL of its API (`resolveConnection`'s: a trailing
 * slash, a default port or the host's case make no difference) and its name when it was given one.
 * Not its token: a token is a credential, and a rotated one is still the same account (as a
 * provider's keys are no part of its identity in Pulumi's and Terraform's providers).
 */
export interface AccountIdentity {
  /** Undefined when the base URL cannot be resolved (missing or refused). */
  readonly baseUrl?: string;
  readonly name?: string;
}

/** A field of an account that identifies it. */
export type AccountIdentityField = "baseUrl" | "name";

/** `baseUrl` as the client resolves it (no token needed to say which platform it names), or undefined. */
export function normalisedBaseUrl(baseUrl: unknown): string | undefined {
  if (!isText(baseUrl)) return undefined;
  try {
    // Only the base URL is judged: any acceptable token stands in for the account's.
    return resolveConnection({ baseUrl, token: "placeholder", env: {} }).baseUrl;
  } catch {
    return undefined;
  }
}

/** The identity of an explicit account (see `accountChanges`). */
export function explicitAccountIdentity(account: ExplicitAccount): AccountIdentity {
  return { baseUrl: normalisedBaseUrl(account.baseUrl), ...(isText(account.name) ? { name: account.name } : {}) };
}

/**
 * The fields by which `b` is another account than `a` (empty: the same account). The base URL
 * differs when the two differ or either cannot be resolved; the name only when both have one, so
 * naming an account that had no name (or dropping its name) keeps it the same account.
 *
 * Decision (not shown in spec): the API does not say which account a token belongs to (spec,
 * Authentication 2), so the token cannot tell accounts apart: a changed token is the same account
 * with a rotated credential. Two accounts on one base URL are told apart by their names.
 */
export function accountChanges(a: AccountIdentity, b: AccountIdentity): AccountIdentityField[] {
  const changes: AccountIdentityField[] = [];
  if (a.baseUrl === undefined || a.baseUrl !== b.baseUrl) changes.push("baseUrl");
  if (a.name !== undefined && b.name !== undefined && a.name !== b.name) changes.push("name");
  return changes;
}
