/**
 * The key of an account (spec, Authentication 3: limits and data are per account). Three things
 * are kept per account and all name it by this key: the shared client (`getApiClient`), its rate
 * limiter and shared state file, and the data sources' read cache; the create journal names the
 * account by a hash of it.
 */
import { createHash } from "node:crypto";
import { type Connection, type ConnectionOptions, resolveConnection } from "./connection";

/**
 * Key of an account: SHA-256 of base URL and token. Pass the base URL of a resolved `Connection`
 * (`resolveConnection` drops a trailing slash, a default port and the host's case), so every way of
 * writing one platform's address is one account; `resolveAccount` does both. The raw token is never
 * a map key, so it does not show up in heap snapshots of the registries or in debug output of them.
 */
export function accountKey(baseUrl: string, token: string): string {
  return createHash("sha256").update(baseUrl).update("\u0000").update(token).digest("hex");
}

/** A resolved connection and the key of its account. */
export interface ResolvedAccount {
  readonly connection: Connection;
  /** `accountKey` of the connection's normalised base URL and its token. */
  readonly key: string;
}

/**
 * The connection `options` name (`resolveConnection`) and its account's key, computed from the
 * normalised base URL, so the client, the read cache and the journal agree on which account it is.
 * @throws ApiConfigError when the token or base URL is missing or unusable (see `resolveConnection`).
 */
export function resolveAccount(options: ConnectionOptions = {}): ResolvedAccount {
  const connection = resolveConnection(options);
  return { connection, key: accountKey(connection.baseUrl, connection.token) };
}
