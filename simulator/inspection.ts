/**
 * The inspection surface under `/_sim/`, outside the API paths: no rate limit, not logged, and no
 * auth on loopback; on an address other machines can reach it requires the admin token
 * (`inspectionAccess.ts`).
 *
 *   GET    /_sim/state?account=demo            one account's data, keyed by collection (wire shape)
 *   GET    /_sim/requests?account=demo         counts by operation and status, and each call's body
 *   GET    /_sim/windows?account=demo          rate windows and in-flight counters
 *   GET    /_sim/faults                        current fault settings
 *   POST   /_sim/faults                        merge fault settings (JSON body)
 *   POST   /_sim/reset                         seeded data, empty logs, fresh windows and faults
 *   DELETE /_sim/objects/<collection>/<id>?account=demo   remove one record (simulates drift)
 *
 * `account` defaults to `demo`. On DELETE, other query parameters are field filters naming the
 * parent, for ids unique only within it: `/_sim/objects/abTestVariations/1?ab_test_id=302`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { readBody } from "./body";
import { errorBody } from "./errors";
import { sendEmpty, sendJson } from "./http";
import { ADMIN_TOKEN_ENV, carriesAdminToken, type InspectionAccess } from "./inspectionAccess";
import type { Simulation } from "./simulation";

/** Account the inspection endpoints use when `?account=` is not given. */
export const DEFAULT_INSPECTED_ACCOUNT = "demo";

/** Handles one request under `/_sim/`. */
export async function handleInspection(
  sim: Simulation,
  access: InspectionAccess,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  // Before the body is read: a refused caller gets nothing processed, not even its body.
  if (access === "off") {
    return sendJson(
      res,
      403,
      errorBody(403, `/_sim/* is refused on an address other machines can reach; set ${ADMIN_TOKEN_ENV} to use it`),
      {
        Connection: "close",
      },
    );
  }
  if (access === "token" && !carriesAdminToken(req.headers.authorization, sim.options.adminToken ?? "")) {
    return sendJson(res, 401, errorBody(401, "/_sim/* requires the admin token as a bearer token"), {
      "WWW-Authenticate": "Bearer",
      Connection: "close",
    });
  }
  const read = await readBody(req, sim.options.maxBodyBytes);
  if (read.kind === "tooLarge") return sendJson(res, 413, errorBody(413, "body too large"), { Connection: "close" });
  const method = req.method ?? "GET";
  let parts: string[];
  try {
    parts = url.pathname.split("/").slice(2).map(decodeURIComponent);
  } catch {
    return sendJson(res, 400, errorBody(400, "a path segment is not valid percent-encoding"));
  }
  const account = url.searchParams.get("account") ?? DEFAULT_INSPECTED_ACCOUNT;
  const needAccount = (): boolean => {
    if (sim.store.hasAccount(account)) return true;
    sendJson(res, 404, errorBody(404, `unknown account "${account}"`));
    return false;
  };
  const route = `${method} ${parts[0] ?? ""}`;

  switch (route) {
    case "GET state":
      if (needAccount()) sendJson(res, 200, sim.store.snapshot(account));
      return;
    case "GET requests":
      return sendJson(res, 200, sim.log.snapshot(account));
    case "GET windows":
      if (needAccount()) sendJson(res, 200, sim.windows(account));
      return;
    case "GET faults":
      return sendJson(res, 200, sim.faults.current());
    case "POST faults": {
      let patch: unknown;
      try {
        patch = read.text.length > 0 ? JSON.parse(read.text) : {};
        return sendJson(res, 200, sim.faults.update(patch));
      } catch (err) {
        const message = err instanceof z.ZodError ? z.prettifyError(err) : (err as Error).message;
        return sendJson(res, 400, errorBody(400, `invalid fault settings: ${message}`));
      }
    }
    case "POST reset":
      sim.reset();
      return sendEmpty(res, 204);
    case "DELETE objects": {
      const [, collection, id] = parts;
      if (!collection || !id || parts.length !== 3) {
        return sendJson(res, 400, errorBody(400, "expected /_sim/objects/<collection>/<id>"));
      }
      if (!needAccount()) return;
      const where = Object.fromEntries([...url.searchParams].filter(([k]) => k !== "account"));
      return sim.store.remove(account, collection, { ...where, id })
        ? sendEmpty(res, 204)
        : sendJson(res, 404, errorBody(404, `no ${collection} record with id ${id} in account ${account}`));
    }
    default:
      return sendJson(res, 404, errorBody(404, `no inspection endpoint at ${method} ${url.pathname}`));
  }
}
