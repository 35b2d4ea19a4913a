/**
 * The key of an account (spec, Authentication 3: limits and data are per account). Three things
 * are kept per account and all name it by this key: the shared client (`getApiClient`), its rate
 * limiter and shared state file, and the data sources' read cache.
 */
import { createHash } from "node:crypto";

/**
 * Key of an account: SHA-256 of base URL and token. Pass the base URL of a resolved `Connection`
 * (`resolveConnection` drops a trailing slash, a default port and the host's case), so every way of
 * writing one platform's address is one account. The raw token is never a map key, so it does not
 * show up in heap snapshots of the registries or in debug output of them.
 */
export function accountKey(baseUrl: string, token: string): string {
  return createHash("sha256").update(baseUrl).update("\u0000").update(token).digest("hex");
}
