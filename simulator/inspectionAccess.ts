/**
 * Who may use the inspection surface (`/_sim/*`): it resets the data, rewrites the faults and shows
 * every account's records and request bodies, with no platform counterpart to take its rules from.
 *
 * Decision: the policy follows the address the server is bound to, not the peer's. On a loopback
 * address only this machine can connect, so `/_sim/*` stays open (tests and the demo rely on it).
 * Any other address, `0.0.0.0` and `::` included, is reachable from other machines, so `/_sim/*`
 * then requires `Authorization: Bearer <admin token>`, and without an admin token it is refused.
 * Judging by the peer instead would let anything that reaches the port through a local proxy or
 * tunnel in as "local".
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isLoopbackHost } from "../provider/client/connection";

/** The environment variable the command line reads the admin token from (never a flag: `ps` shows flags). */
export const ADMIN_TOKEN_ENV = "ADPLATFORM_SIMULATOR_ADMIN_TOKEN";

/** `open`: loopback, no token. `token`: the admin token is required. `off`: refused, no token set. */
export type InspectionAccess = "open" | "token" | "off";

/** The policy for a server bound to `boundAddress` (as `server.address()` gives it). */
export function inspectionAccess(boundAddress: string, adminToken: string | undefined): InspectionAccess {
  if (isLoopbackHost(boundAddress)) return "open";
  return adminToken === undefined || adminToken === "" ? "off" : "token";
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** True when `authorization` is `Bearer <adminToken>`; compared in constant time. */
export function carriesAdminToken(authorization: string | undefined, adminToken: string): boolean {
  const match = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match !== null && timingSafeEqual(digest(match[1]), digest(adminToken));
}

/**
 * The one start-up warning for a policy other than `open`, naming the bound address; undefined on
 * loopback. It never holds the admin token.
 */
export function inspectionWarning(access: InspectionAccess, boundAddress: string): string | undefined {
  if (access === "open") return undefined;
  const reach = `warning: listening on ${boundAddress}, which other machines can reach; the API takes the documented demo tokens`;
  return access === "token"
    ? `${reach}, and /_sim/* requires "Authorization: Bearer <${ADMIN_TOKEN_ENV}>".`
    : `${reach}; /_sim/* is refused (403) until ${ADMIN_TOKEN_ENV} is set, and then requires it as a bearer token.`;
}
