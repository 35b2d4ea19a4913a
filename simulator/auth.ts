/**
 * Bearer-token authentication (spec, Authentication 1: every request carries
 * `Authorization: Bearer <ACCESS_TOKEN>`).
 */

/** An account the simulator knows: its bearer token and the company id stamped on its records. */
export interface AccountConfig {
  readonly account: string;
  readonly token: string;
  readonly companyId: string;
}

/**
 * The account of an `Authorization` header value, or undefined when it is missing, not a bearer
 * token, or an unknown token. The scheme name is case-insensitive (RFC 9110, 11.1).
 */
export function authenticate(header: string | undefined, accounts: readonly AccountConfig[]): AccountConfig | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match ? accounts.find((a) => a.token === match[1]) : undefined;
}
