/**
 * The API request pipeline, the same for every operation of the catalog:
 *
 *   body (413) -> route (404/405) -> auth (401) -> in-flight limit (429, Retry-After -1)
 *   -> scripted/random 429 faults -> rate windows (429, Retry-After N) -> delay / hold
 *   -> drop-before / 500 faults -> JSON body (400) -> engine (2xx/400/404)
 *   -> drop-after / malformed / wrong-shape faults -> response with X-RateLimit-* headers.
 *
 * Decision (not shown in spec): routing comes before authentication; an unknown path is a 404 and a
 * known path with another method a 405 with `Allow`, token or not.
 *
 * Decision (not shown in spec): what counts against the windows. Every request that passes the
 * in-flight check and the limiter is counted, whatever its outcome (400, 404, 500 included); a 429,
 * a 401, a 413 and a request to an unknown path are not counted. Every answer but a 429 carries
 * `X-RateLimit-*` (spec, Limits 5), the uncounted ones too (`uncountedRateHeaders`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RateClassName } from "../provider/catalog";
import { authenticate } from "./auth";
import { bodyForLog, parseJsonBody, readBody } from "./body";
import { runOperation } from "./engine";
import { errorBody, invalidBody, invalidRequest, serverErrorBody } from "./errors";
import type { ChosenFault } from "./faults";
import { formatTimestamp, queryObject, sendEmpty, sendJson, sleep } from "./http";
import { formatResetSeconds, formatRetryAfterSeconds, type RateHeaders } from "./rateLimiter";
import { ANONYMOUS, type LoggedStatus } from "./requestLog";
import type { Simulation } from "./simulation";

/**
 * spec, rule 9 and Limits 7: the subresources asked for in `fields`. Decision (not shown in spec):
 * comma-separated, repeatable (`fields=a,b` and `fields=a&fields=b` are the same), blanks ignored;
 * `fields` only changes the cost (the record is always returned whole), and every other query
 * parameter (names and types not shown, rule 9) is accepted and ignored, on every operation.
 */
export function requestedFields(params: URLSearchParams): string[] {
  return params
    .getAll("fields")
    .flatMap((v) => v.split(","))
    .map((f) => f.trim())
    .filter((f) => f.length > 0);
}

/**
 * The rate class of a request that names no operation (an unknown path, another method): spec,
 * Limits 3 puts every operation in class C, so its windows are the ones a client is using.
 */
const UNROUTED_RATE_CLASS: RateClassName = "C";

function rateHeaderValues(h: RateHeaders): Record<string, string> {
  // spec, Limits 5: on every response that did not hit the limit.
  return {
    "X-RateLimit-Limit": String(h.limit),
    "X-RateLimit-Remaining": String(h.remaining),
    "X-RateLimit-Reset": formatResetSeconds(h.resetMs),
  };
}

/**
 * The `wrongShape` fault's body: the same object with its `id` kept and every other top-level field
 * `null`, which no field schema of the spec's records accepts. Non-objects are sent unchanged.
 */
function wrongShape(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, key === "id" ? value : null]));
}

/**
 * The `X-RateLimit-*` headers for an answer to `req` that no window counted, unless `res` already
 * carries the ones its admission set (see `Simulation.standingRateHeaders`).
 */
export function uncountedRateHeaders(
  sim: Simulation,
  req: IncomingMessage,
  res: ServerResponse,
  rateClass = UNROUTED_RATE_CLASS,
): Record<string, string> {
  if (res.hasHeader("X-RateLimit-Limit")) return {};
  const account = authenticate(req.headers.authorization, sim.options.accounts);
  return rateHeaderValues(sim.standingRateHeaders(account?.account, rateClass));
}

/** Handles one API request (anything outside `/_sim/`). */
export async function handleApi(sim: Simulation, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? "GET";
  const read = await readBody(req, sim.options.maxBodyBytes);
  const text = read.kind === "ok" ? read.text : "";
  const account = authenticate(req.headers.authorization, sim.options.accounts);
  const route = sim.router.match(method, url.pathname);
  const op = route.kind === "operation" ? route.op : undefined;

  let cost = 0;
  let fault: ChosenFault | undefined;
  const settle = (status: LoggedStatus) =>
    sim.log.record(account?.account ?? ANONYMOUS, op, {
      at: sim.now(),
      method,
      path: url.pathname,
      query: queryObject(url.searchParams),
      // Never the Authorization header: only path, query and body are kept.
      body: read.kind === "ok" ? bodyForLog(text) : `<${read.kind}>`,
      status,
      cost,
      ...(fault ? { fault: fault.kind } : {}),
    });
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    // A 429 hit the limit and carries none (spec, Limits 5); every other answer carries them.
    const rate = status === 429 ? {} : uncountedRateHeaders(sim, req, res, op?.rateClass);
    sendJson(res, status, body, { ...rate, ...headers });
    settle(status);
  };

  if (read.kind === "tooLarge") {
    return reply(413, errorBody(413, `request body exceeds ${sim.options.maxBodyBytes} bytes`), { Connection: "close" });
  }
  if (route.kind === "notFound") return reply(404, errorBody(404, `no operation at ${method} ${url.pathname}`));
  if (route.kind === "badPath") return reply(400, invalidRequest("a path segment is not valid percent-encoding"));
  if (route.kind === "methodNotAllowed") {
    return reply(405, errorBody(405, `${method} is not allowed on ${url.pathname}`), { Allow: route.allow.join(", ") });
  }
  if (!account) {
    // spec, Authentication 1. Decision (not shown in spec): a missing or unknown token is a 401.
    return reply(401, errorBody(401, "a valid bearer token is required"), { "WWW-Authenticate": "Bearer" });
  }

  const inFlight = sim.inFlightOf(account.account);
  if (!inFlight.tryEnter()) {
    // spec, Limits 6: `Retry-After: -1` when too many requests are in flight.
    return reply(429, errorBody(429, "too many requests in flight"), { "Retry-After": "-1" });
  }
  res.once("close", () => inFlight.leave());

  fault = sim.faults.choose(route.op, account.account);
  if (fault?.kind === "concurrency") return reply(429, errorBody(429, "too many requests in flight (injected)"), { "Retry-After": "-1" });
  if (fault?.kind === "rateLimit") {
    return reply(429, errorBody(429, "rate limit reached (injected)"), { "Retry-After": String(fault.retryAfter) });
  }

  const requestCost = route.op.cost({ fields: route.op.acceptsFields ? requestedFields(url.searchParams) : [] });
  const admission = sim.limiter(account.account, route.op.rateClass).tryAdmit(sim.now(), requestCost);
  if (!admission.admitted) {
    return reply(429, errorBody(429, "rate limit reached"), {
      "Retry-After": formatRetryAfterSeconds(admission.retryAfterMs, sim.options.retryAfterUnitMs),
    });
  }
  cost = requestCost;
  for (const [name, value] of Object.entries(rateHeaderValues(admission.headers))) res.setHeader(name, value);

  await sleep(sim.faults.baseDelayMs + (fault?.kind === "delay" ? (fault.delayMs ?? 0) : 0));
  await sim.faults.waitAtGate(account.account);

  if (fault?.kind === "dropBefore") {
    settle("dropped-before");
    req.socket.destroy();
    return;
  }
  if (fault?.kind === "error500" || fault?.kind === "error500NoTrace") {
    return reply(500, serverErrorBody(fault.kind === "error500"));
  }

  let body: unknown;
  if (route.op.request) {
    const parsed = parseJsonBody(text, req.headers["content-type"]);
    if (!parsed.ok) return reply(400, invalidBody(parsed.message));
    body = parsed.value;
  }
  const now = sim.now();
  const result = runOperation(sim.store, {
    op: route.op,
    params: route.params,
    body,
    account: account.account,
    companyId: account.companyId,
    timestamp: formatTimestamp(now),
    now,
    hideCreatedForMs: sim.faults.hideCreatedForMs,
  });

  if (fault?.kind === "dropAfter") {
    settle("dropped-after");
    req.socket.destroy();
    return;
  }
  if (fault?.kind === "malformed" && result.body !== undefined) {
    // A body cut in half: valid headers, invalid JSON.
    const whole = JSON.stringify(result.body);
    res.writeHead(result.status, { "Content-Type": "application/json; charset=utf-8" });
    res.end(whole.slice(0, Math.max(1, Math.floor(whole.length / 2))));
    return settle(result.status);
  }
  if (fault?.kind === "wrongShape" && result.body !== undefined) return reply(result.status, wrongShape(result.body));
  if (result.body === undefined) {
    sendEmpty(res, result.status);
    return settle(result.status);
  }
  reply(result.status, result.body);
}
