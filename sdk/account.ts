/**
 * `Account`: one platform account a program writes to or reads from, for programs that manage
 * several accounts at once (an agency's brands, one preview in CI for all of them).
 *
 * Pass it as `account` in the arguments of any resource or data source. Where none is passed, the
 * stack config (`adplatform:baseUrl`, `adplatform:token`) and then the environment apply, as for a
 * program with one account. Each account has its own rate-limit windows (spec, Authentication 3:
 * limits apply per account), so resources of two accounts are written in parallel.
 *
 * The token is made a Pulumi secret here, whatever it was given as: it reaches the state only as
 * ciphertext, and never an output, a log line or an error message.
 */
import * as pulumi from "@pulumi/pulumi";

/** The arguments of an `Account`. */
export interface AccountArgs {
  /** `{base_url}` of the account's API: `https://...`, or `http://` to a loopback address (the simulator). */
  baseUrl: pulumi.Input<string>;
  /** The account's access token (spec, Authentication 1). Kept as a secret. */
  token: pulumi.Input<string>;
  /**
   * A stable name for the account. Resources compare accounts by it when it is set on both sides, so
   * a rotated token (or another spelling of the base URL) is still the same account; without it, a
   * new token reads as another account and replaces the resources that name it (the API cannot say
   * which account a token belongs to).
   */
  name?: pulumi.Input<string>;
  /**
   * The fraction of the account's rate limits this provider may spend, above 0 and at most 1, for
   * an account that other systems use too (`0.5`: at most 75 of 150 requests per minute). Without
   * it, the `rateLimitShare` setting applies (stack config, else `ADPLATFORM_RATE_LIMIT_SHARE`),
   * else the whole limit.
   */
  rateLimitShare?: pulumi.Input<number>;
}

/** The property map a resource or data source receives for an account. */
export interface AccountProperty {
  /** The account's API base URL. */
  baseUrl: pulumi.Output<string>;
  /** The account's token, a secret. */
  token: pulumi.Output<string>;
  /** The account's stable name, when given. */
  name?: pulumi.Output<string>;
  /** The share of the account's rate limits to spend, when given. */
  rateLimitShare?: pulumi.Output<number>;
}

/** A platform account: a base URL and a (secret) token, passed as `account` to resources and data sources. */
export class Account {
  /** The account's API base URL. */
  readonly baseUrl: pulumi.Output<string>;
  /** The account's token, as a secret. */
  readonly token: pulumi.Output<string>;
  /** The account's stable name, when given. */
  readonly name: pulumi.Output<string> | undefined;
  /** The share of the account's rate limits to spend, when given. */
  readonly rateLimitShare: pulumi.Output<number> | undefined;

  /** @param args base URL, token (made secret), an optional stable name and an optional share of the rate limits. */
  constructor(args: AccountArgs) {
    this.baseUrl = pulumi.output(args.baseUrl);
    this.token = pulumi.secret(args.token);
    this.name = args.name === undefined ? undefined : pulumi.output(args.name);
    this.rateLimitShare = args.rateLimitShare === undefined ? undefined : pulumi.output(args.rateLimitShare);
  }

  /** True when `value` is an `Account` (of any copy of this package). */
  static isInstance(value: unknown): value is Account {
    return (
      value instanceof Account ||
      (typeof value === "object" && value !== null && (value as { __adplatformAccount?: unknown }).__adplatformAccount === true)
    );
  }

  /** Marks instances for `isInstance` across copies of the package. */
  readonly __adplatformAccount = true as const;

  /** The values a resource's `account` input carries. */
  toProperty(): AccountProperty {
    return {
      baseUrl: this.baseUrl,
      token: this.token,
      ...(this.name === undefined ? {} : { name: this.name }),
      ...(this.rateLimitShare === undefined ? {} : { rateLimitShare: this.rateLimitShare }),
    };
  }
}

/**
 * `account` as an `Account`: a plain `{ baseUrl, token }` object (JavaScript programs) is wrapped,
 * so its token is made secret too. Undefined stays undefined (the stack config applies).
 */
export function asAccount(account: Account | AccountArgs | undefined): Account | undefined {
  if (account === undefined || account === null) return undefined;
  return Account.isInstance(account) ? account : new Account(account);
}
