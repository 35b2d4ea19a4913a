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
import { accountKey } from "./accountKey";
import { connectionRefusal, resolveConnection, type Connection } from "./connection";

/** The fields of an explicit account, as they arrive (any of them may be missing or mistyped). */
export interface ExplicitAccount {
  /** `{base_url}` of the account's API. */
  readonly baseUrl?: unknown;
  /** The account's access token. */
  readonly token?: unknown;
  /** A stable name of the account, optional (see `sameAccount`). */
  readonly name?: unknown;
}

/** One field of an explicit account. */
export type ExplicitAccountField = "baseUrl" | "token" | "name";

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
  const { baseUrl, token, name } = account as ExplicitAccount;
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

/** What identifies an account: its name when it was given one, and the key of its connection. */
export interface AccountIdentity {
  readonly name?: string;
  /** `accountKey` of the normalised base URL and token; undefined when they cannot be resolved. */
  readonly key?: string;
}

/** The identity of an explicit account (see `sameAccount`). */
export function explicitAccountIdentity(account: ExplicitAccount): AccountIdentity {
  let key: string | undefined;
  try {
    const connection = explicitAccountConnection(account);
    key = accountKey(connection.baseUrl, connection.token);
  } catch {
    key = undefined;
  }
  return { ...(isText(account.name) ? { name: account.name } : {}), key };
}

/**
 * Whether two accounts are the same: by name when both have one (so a rotated token or another
 * spelling of the base URL is still the same account), else by the key of the normalised base URL
 * and token. Two accounts either of which cannot be resolved are not the same.
 *
 * Decision (not shown in spec): the API does not say which account a token belongs to (spec,
 * Authentication 2), so without names a new token reads as another account.
 */
export function sameAccount(a: AccountIdentity, b: AccountIdentity): boolean {
  if (a.name !== undefined && b.name !== undefined) return a.name === b.name;
  return a.key !== undefined && a.key === b.key;
}
