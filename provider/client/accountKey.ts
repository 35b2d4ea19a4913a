/** The key of an account (spec, Authentication 3: limits apply per account). */
import { createHash } from "node:crypto";

/**
 * Key of an account: SHA-256 of base URL and token. The raw token is never a map key, so it does
 * not show up in heap snapshots of the registry or in debug output of it.
 */
export function accountKey(baseUrl: string, token: string): string {
  return createHash("sha256").update(baseUrl).update("\u0000").update(token).digest("hex");
}
