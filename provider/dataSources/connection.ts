/** Where a data source reads from, and the account-scoped key its cache entries carry. */
import { createHash } from "node:crypto";

/** Base URL and bearer token of one platform account (spec, Authentication 1). */
export interface Connection {
  /** `{base_url}` of the spec, e.g. `https://api.example.com` or the simulator's URL. */
  readonly baseUrl: string;
  /** Access token sent as `Authorization: Bearer <token>`. */
  readonly token: string;
}

/**
 * A short hash naming the account a connection reads as (spec, Authentication 3: limits and data are
 * per account). Cache keys hold this hash, never the token. Trailing slashes of the base URL do not
 * make a different account.
 */
export function accountKey(connection: Connection): string {
  return createHash("sha256")
    .update(connection.baseUrl.replace(/\/+$/, ""))
    .update("\0")
    .update(connection.token)
    .digest("hex")
    .slice(0, 32);
}
