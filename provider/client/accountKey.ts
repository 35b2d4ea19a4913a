/**
 * The key of an account (spec, Authentication 3: limits and data are per account), which names its
 * client, limiter and state file, the data sources' read cache and (hashed) its create journal.
 */
import { createHash } from "node:crypto";
import { type Connection, type ConnectionOptions, resolveConnection } from "./connection";

/**
 * SHA-256 of base URL and token. Pass a resolved `Connection`'s base URL, so every way of writing one
 * address is one account (`resolveAccount` does both). The raw token is never a map key, so it does
 * not show up in heap snapshots or debug output of the registries.
 */
export function accountKey(baseUrl: string, token: string): string {
  return createHash("sha256").update(baseUrl).update("\u0000").update(token).digest("hex");
}

export interface ResolvedAccount {
  readonly connection: Connection;
  readonly key: string;
}

/** The connection `options` name and its account's key. @throws ApiConfigError (see `resolveConnection`). */
export function resolveAccount(options: ConnectionOptions = {}): ResolvedAccount {
  const connection = resolveConnection(options);
  return { connection, key: accountKey(connection.baseUrl, connection.token) };
}
