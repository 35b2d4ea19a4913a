/**
 * Where processes on one machine share an account's rate-limit windows (spec, Authentication 3:
 * limits apply per account; the Pulumi program process and the provider plugin process spend on
 * the same account at once).
 */
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountKey } from "./limiterRegistry";

/** Directory of the shared state files, under the OS temp directory. */
export function sharedStateDirectory(): string {
  return join(tmpdir(), "pulumi-adplatform-limits");
}

/**
 * The shared state file of an account: named by a hash of the account key (itself a hash of base
 * URL and token), so neither the token nor the registry key appears on disk.
 */
export function sharedStatePath(baseUrl: string, token: string, directory: string = sharedStateDirectory()): string {
  return sharedStatePathForKey(accountKey(baseUrl, token), directory);
}

/** `sharedStatePath` from an account key. */
export function sharedStatePathForKey(key: string, directory: string = sharedStateDirectory()): string {
  const name = createHash("sha256").update("limiter-state\u0000").update(key).digest("hex").slice(0, 32);
  return join(directory, `${name}.json`);
}
