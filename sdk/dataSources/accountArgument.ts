/**
 * The `account` argument of every data source: which account a read goes to, instead of the
 * connection settings of `../config` (provider/dataSources/engine.ts).
 *
 * The read engine keys its cache by account, so the same id read in two accounts is two reads. The
 * `Output` forms unwrap the account apart from the other arguments: the token is a secret, but it
 * never reaches a result, so it does not make the result secret (other secret arguments still do).
 * An unusable account (missing token, base URL not https:// or loopback http://) fails the read
 * before anything is sent, with the function's name and the property path (`account.token`).
 */
import * as pulumi from "@pulumi/pulumi";
import { explicitAccountProblems, type ExplicitAccount } from "../../provider/client/explicitAccount";
import { rateLimitShareFailure } from "../../provider/configuration/rateLimitShare";
import { DataSourceCredentialsError, type ConnectionSettings } from "../../provider/dataSources";
import { asAccount, type Account } from "../account";
import { programSettings } from "../config";

/** The `account` argument every `GetXArgs` and `GetXOutputArgs` has. */
export interface AccountArgument {
  /**
   * The platform account to read from (`new Account({ baseUrl, token })`); the stack config or the
   * environment when omitted. Reads are shared per account: the same id in two accounts is two reads.
   */
  account?: Account;
}

/** `args` split into its account (undefined when absent) and the arguments the read validates. */
export function splitAccount(args: unknown): { account: unknown; rest: unknown } {
  if (args === null || typeof args !== "object" || !("account" in args)) return { account: undefined, rest: args };
  const { account, ...rest } = args as Record<string, unknown>;
  return { account: account ?? undefined, rest };
}

/** The internals of an `Output` that let the promise form wait for it without hanging on an unknown. */
interface OutputInternals<T> {
  readonly isKnown: Promise<boolean>;
  promise(): Promise<T>;
}

/** An output's value, or an error naming the field when it is not known yet (preview). */
async function valueOf(functionName: string, field: string, output: pulumi.Output<unknown> | undefined): Promise<unknown> {
  if (output === undefined) return undefined;
  const internals = output as unknown as OutputInternals<unknown>;
  if (!(await internals.isKnown)) {
    throw new DataSourceCredentialsError(
      functionName,
      `account.${field} is not known yet (it comes from a resource not yet created); use the Output form of the function, which waits for it`,
    );
  }
  return internals.promise();
}

/** The plain values of an account argument: an `Account` awaited, a plain object as it is. */
async function accountValues(functionName: string, account: unknown): Promise<ExplicitAccount> {
  if (account === null || typeof account !== "object") return account as ExplicitAccount;
  if (!pulumi.Output.isInstance((account as Record<string, unknown>).token)) return account as ExplicitAccount;
  const resolved = asAccount(account as Account);
  if (resolved === undefined) return {};
  const [baseUrl, token, name, rateLimitShare] = await Promise.all([
    valueOf(functionName, "baseUrl", resolved.baseUrl),
    valueOf(functionName, "token", resolved.token),
    valueOf(functionName, "name", resolved.name),
    valueOf(functionName, "rateLimitShare", resolved.rateLimitShare),
  ]);
  return { baseUrl, token, ...(name === undefined ? {} : { name }), ...(rateLimitShare === undefined ? {} : { rateLimitShare }) };
}

/**
 * The connection settings of an account argument, or a `DataSourceCredentialsError` naming the
 * function and every unusable field.
 */
export async function accountConnection(functionName: string, account: unknown): Promise<ConnectionSettings> {
  const values = await accountValues(functionName, account);
  const problems = explicitAccountProblems(values);
  if (problems.length > 0) {
    const lines = problems.map(({ field, reason }) => `${field === undefined ? "account" : `account.${field}`} ${reason}`);
    throw new DataSourceCredentialsError(functionName, `invalid account: ${lines.join("; ")}`);
  }
  // The account's share, else the program's (`rateLimitShare` is a deploy's manners, not the account's).
  const settings = programSettings();
  const { limitsUrl } = settings;
  const rateLimitShare = values.rateLimitShare ?? (rateLimitShareFailure(settings) === undefined ? settings.rateLimitShare : undefined);
  return {
    baseUrl: values.baseUrl as string,
    token: values.token as string,
    ...(limitsUrl === undefined ? {} : { limitsUrl }),
    ...(rateLimitShare === undefined ? {} : { rateLimitShare: Number(rateLimitShare) }),
    origins: { baseUrl: "account", token: "account" },
  };
}

/**
 * The account of an `Output` form's arguments as one `Output` of its plain values, not secret (the
 * token is used for the request only), or undefined when there is none.
 */
export function accountOutput(account: unknown): pulumi.Output<ExplicitAccount> | undefined {
  if (account === undefined) return undefined;
  if (account === null || typeof account !== "object") return pulumi.output(account as ExplicitAccount);
  const resolved = asAccount(account as Account);
  if (resolved === undefined) return undefined;
  return pulumi.unsecret(pulumi.output(resolved.toProperty()) as pulumi.Output<ExplicitAccount>);
}
