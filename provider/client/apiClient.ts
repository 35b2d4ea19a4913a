/**
 * The rate-limited API client: one engine that turns a catalog entry plus a request into an HTTP
 * call, with no request code per endpoint. Per call it validates locally, then loops: wait for the
 * account's limiter, send once over the shared keep-alive pool, let the limiter learn from the
 * response, and ask the pure retry policy whether to go again.
 *
 * One client per account (base URL + token, keyed by `accountKey`) per process, from
 * `getApiClient`: the account's limits are shared (spec, Authentication 3), so its calls must
 * draw from one limiter.
 *
 * The request engine's steps (prepare, attempt) share one prepared request, so they are one class;
 * reading the answer into the attempt's outcome is response.ts, and every other part with a concern
 * of its own lives in its own module (connection, retry policy, error family, timeouts, pools; the
 * limiter in provider/limiter/). What a call takes and gives is contract.ts.
 */
import { setImmediate } from "node:timers/promises";
import { inspect } from "node:util";
import type { Dispatcher } from "undici";
import { buildPath, OPERATIONS, pathParamProblem } from "../catalog";
import type { OperationSpec } from "../catalog";
import { resolveAccount } from "./accountKey";
import { type Clock, sleep, systemClock } from "../infrastructure";
import type { Connection } from "./connection";
import { type DebugSink, debugSink } from "./debug";
import { ApiRequestValidationError, type RequestContext, type ValidationIssue } from "./errors";
import { type ErrorContext, errorForResponse } from "./httpErrors";
import type { Permit, RateLimiter } from "../limiter";
import { resetLimiters, sharedLimiter, parseRateLimitInfo, parseRetryAfter } from "../limiter";
import { type ApiClient, type ApiClientOptions, type CallRequest, type CallResult, DEFAULT_MAX_RESPONSE_BYTES } from "./contract";
import { type Attempt, issuesOf, readBody, success } from "./response";
import { errorForNetworkFailure } from "./networkErrors";
import { closePools, sharedPool } from "./pools";
import { type AttemptFailure, RETRY_DEFAULTS, resolveRetryOptions, type RetryOptions, shouldRetry } from "./retryPolicy";
import { resolveTimeouts, type Timeouts } from "./timeouts";

const clients = new Map<string, ApiClient>();

/**
 * The shared client of the account named by `options` (else `ADPLATFORM_BASE_URL` /
 * `ADPLATFORM_TOKEN`). Same base URL and token → same client, limiter and pool.
 *
 * @throws ApiConfigError when the token or base URL is missing or unsafe (see `resolveConnection`).
 */
export function getApiClient(options: ApiClientOptions = {}): ApiClient {
  const { connection, key } = resolveAccount(options);
  // One client per account and share, all of an account on its one limiter.
  const clientKey = `${key}\u0000${options.rateLimitShare ?? ""}`;
  let client = clients.get(clientKey);
  if (!client) {
    client = new HttpApiClient(connection, options, sharedLimiter(key, options.limiterOptions, options.limitsUrl));
    clients.set(clientKey, client);
  }
  return client;
}

/**
 * Forgets every client and limiter and closes the pools (tests, or a clean shutdown). Clients
 * obtained before must not be used afterwards.
 */
export async function closeApiClients(): Promise<void> {
  clients.clear();
  resetLimiters();
  await closePools();
}

const BY_NAME: ReadonlyMap<string, OperationSpec> = new Map(OPERATIONS.map((op) => [op.name, op]));

/** A validated request, ready to send. */
interface Prepared {
  readonly op: OperationSpec;
  /** Path with query, relative to the origin. */
  readonly path: string;
  readonly bodyText?: string;
  readonly cost: number;
  readonly context: RequestContext;
}

class HttpApiClient implements ApiClient {
  readonly baseUrl: string;
  private readonly retry: RetryOptions;
  private readonly timeouts: Timeouts;
  private readonly maxResponseBytes: number;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly debug: DebugSink | undefined;
  private readonly share: number | undefined;

  constructor(
    private readonly connection: Connection,
    options: ApiClientOptions,
    readonly limiter: RateLimiter,
  ) {
    this.baseUrl = connection.baseUrl;
    this.share = options.rateLimitShare;
    const env = options.env ?? process.env;
    // The jitter after a 429 spreads retries over one burst window: the limiter's, scaled with it.
    this.retry = resolveRetryOptions(options.retryOptions, env, { ...RETRY_DEFAULTS, jitterWindowMs: limiter.options.burstWindowMs });
    this.timeouts = resolveTimeouts(options.timeouts, env);
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.clock = limiter.options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.debug = debugSink(options.onDebug, this.secrets, env);
  }

  /** Texts every error and debug line is scrubbed of. A getter, so no field holds the token. */
  private get secrets(): readonly string[] {
    return [this.connection.token];
  }

  /** Logging the client shows where it points, never its credentials. */
  [inspect.custom](): string {
    return `ApiClient { baseUrl: '${this.baseUrl}' }`;
  }

  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  async call(opOrName: OperationSpec | string, request: CallRequest = {}): Promise<CallResult<never>> {
    const prepared = this.prepare(opOrName, request);
    const { op } = prepared;
    const signal = request.signal;
    let firstSentAt: number | undefined;
    // 429s of either form: refused before any work, so bounded by the time budget, not by attempts.
    let rateLimited = 0;
    let rateLimitedInARow = 0;
    // Every attempt queues at the call's place (the limiter's `acquire` with `queuedSince`).
    const queuedSince = this.clock.now();
    const { onWait } = request;
    for (let attempt = 1; ; attempt += 1) {
      const permit = await this.limiter.acquire(
        {
          rateClass: op.rateClass,
          cost: prepared.cost,
          queuedSince,
          lifeMs: this.timeouts.requestMs,
          ...(onWait ? { onWait } : {}),
          ...(this.share === undefined ? {} : { share: this.share }),
        },
        signal,
      );
      try {
        if (request.beforeSend) await request.beforeSend(attempt);
      } catch (error) {
        permit.release();
        throw error;
      }
      firstSentAt ??= this.clock.now();
      const outcome = await this.attempt(prepared, permit, attempt, signal).finally(() => request.afterAttempt?.(attempt));
      if (outcome.kind === "success") return outcome.result as CallResult<never>;
      const { failure } = outcome;
      const refused = failure.kind === "status" && failure.status === 429;
      rateLimited += refused ? 1 : 0;
      rateLimitedInARow = refused ? rateLimitedInARow + 1 : 0;
      const decision = shouldRetry(
        failure,
        {
          attempt,
          rateLimited,
          rateLimitedInARow,
          elapsedMs: this.clock.now() - firstSentAt,
          method: op.method,
          idempotent: op.idempotent,
        },
        this.retry,
        this.random,
      );
      if (!decision.retry) {
        this.debug?.(`${op.name}: giving up: ${decision.reason}`);
        throw outcome.error(decision.reason);
      }
      // A 429 about a window (`Retry-After` within the steady window) reports that window full
      // (spec, Limits 5): the limiter took it so, until the window's end or the Retry-After, whichever
      // is sooner. The call re-enters the queue at once, in its place, and goes when that window has
      // room, with the account's other calls; sleeping the Retry-After and a jitter on top would
      // leave it behind them, and near a run's end alone in a burst window of its own.
      const windowRefusal = refused && failure.retryAfter?.kind === "delay" && failure.retryAfter.ms <= this.limiter.options.steadyWindowMs;
      if (windowRefusal) {
        this.debug?.(`${op.name}: retry when the refused window has room, not after ${decision.delayMs} ms: ${decision.reason}`);
        continue;
      }
      this.debug?.(`${op.name}: retry in ${decision.delayMs} ms: ${decision.reason}`);
      await sleep(this.clock, decision.delayMs, signal);
    }
  }

  /** Local validation; throws `ApiRequestValidationError` so nothing invalid is ever sent. */
  private prepare(opOrName: OperationSpec | string, request: CallRequest): Prepared {
    const op = typeof opOrName === "string" ? BY_NAME.get(opOrName) : opOrName;
    if (!op)
      throw new ApiRequestValidationError(
        `no operation named "${typeof opOrName === "string" ? opOrName : opOrName.name}" in the catalog`,
        {},
      );
    const base: RequestContext = { operation: { name: op.name, number: op.number }, method: op.method };
    const refuse = (why: string, issues?: ValidationIssue[]) =>
      new ApiRequestValidationError(why, { ...base, path: op.path, secrets: this.secrets, ...(issues ? { issues } : {}) });

    const problem = pathParamProblem(op, request.pathParams ?? {});
    if (problem !== undefined) throw refuse(`${op.name}: ${problem.reason}`, [{ path: problem.param, message: problem.reason }]);
    const path = this.connection.basePath + buildPath(op, request.pathParams ?? {});

    const query = new URLSearchParams();
    const queryEntries = Object.entries(request.query ?? {});
    if (queryEntries.length > 0 && !op.acceptsQuery) throw refuse(`${op.name} takes no query parameters (spec, rule 9)`);
    for (const [name, value] of queryEntries) {
      if (name === "fields") throw refuse('pass subresources as `fields`, not as the query parameter "fields"');
      if (typeof value !== "string") throw refuse(`query parameter "${name}" must be a string`);
      query.append(name, value);
    }
    const fields = [...new Set(request.fields ?? [])];
    if (fields.length > 0) {
      if (!op.acceptsFields) throw refuse(`${op.name} takes no \`fields\` (spec, rule 9: only operations 8 and 13)`);
      const bad = fields.find((f) => typeof f !== "string" || f.trim() === "" || f.includes(","));
      if (bad !== undefined) throw refuse(`field ${JSON.stringify(bad)} is not a subresource name`);
    }
    // spec, rule 9 and Limits 7: subresources as one comma-separated `fields` parameter; the commas
    // stay literal (as the spec writes `fields=a,b`), each name is encoded.
    const fieldsText = fields.length > 0 ? `fields=${fields.map(encodeURIComponent).join(",")}` : "";
    const queryText = [query.toString(), fieldsText].filter(Boolean).join("&");
    const fullPath = queryText ? `${path}?${queryText}` : path;

    let bodyText: string | undefined;
    if (op.request) {
      if (request.body === undefined) throw refuse(`${op.name} needs a request body`);
      const parsed = op.request.safeParse(request.body);
      if (!parsed.success) {
        const issues = issuesOf(parsed.error);
        const first = issues[0];
        throw refuse(
          `body does not match the ${op.name} request schema: ${first ? `${first.path || "(body)"}: ${first.message}` : "invalid"}`,
          issues,
        );
      }
      bodyText = JSON.stringify(parsed.data);
    } else if (request.body !== undefined) {
      throw refuse(`${op.name} takes no request body`);
    }

    return {
      op,
      path: fullPath,
      ...(bodyText !== undefined ? { bodyText } : {}),
      // spec, Limits 7: 1 + one per requested subresource.
      cost: op.cost({ fields }),
      context: { ...base, path: fullPath },
    };
  }

  /** One send. Never throws for HTTP or network failures: they become an `Attempt`. */
  private async attempt(prepared: Prepared, permit: Permit, attempt: number, callerSignal?: AbortSignal): Promise<Attempt> {
    const { op } = prepared;
    const context: ErrorContext = { ...prepared.context, attempts: attempt, secrets: this.secrets };
    const timeoutController = new AbortController();
    const timer = this.clock.setTimer(
      () => timeoutController.abort(new Error(`request timed out after ${this.timeouts.requestMs} ms`)),
      this.timeouts.requestMs,
    );
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeoutController.signal]) : timeoutController.signal;
    const started = this.clock.now();
    let responseStarted = false;
    // The Authorization header is written redacted here; the sink scrubs the token again anyway.
    this.debug?.(
      `→ ${op.name} (${op.method} ${prepared.path}) attempt ${attempt}, cost ${prepared.cost}, Authorization: Bearer [REDACTED]`,
    );
    try {
      const headers: Record<string, string> = {
        authorization: `Bearer ${this.connection.token}`,
        accept: "application/json",
        "user-agent": "pulumi-adplatform",
      };
      if (prepared.bodyText !== undefined) headers["content-type"] = "application/json";
      const response: Dispatcher.ResponseData = await sharedPool(this.connection.origin, this.timeouts.connectMs).request({
        path: prepared.path,
        method: op.method,
        headers,
        body: prepared.bodyText,
        signal,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
      responseStarted = true;
      const receivedAt = this.clock.now();
      const status = response.statusCode;
      const retryAfter = parseRetryAfter(response.headers);
      const rateLimit = parseRateLimitInfo(response.headers);
      const observation = { status, ...(rateLimit ? { rateLimit } : {}), ...(retryAfter ? { retryAfter } : {}) };
      this.debug?.(
        `← ${op.name} ${status} in ${Math.round(this.clock.now() - started)} ms` +
          (rateLimit
            ? `, remaining ${rateLimit.remaining}/${rateLimit.limit}` +
              `, reset ${rateLimit.resetMs === undefined ? "?" : Math.round(rateLimit.resetMs * 1000) / 1000} ms`
            : "") +
          (retryAfter ? `, Retry-After ${retryAfter.kind === "delay" ? `${retryAfter.ms} ms` : "-1"}` : ""),
      );
      // What the headers say reaches the limiter whether or not the body arrives whole.
      const read = await readBody(response, this.maxResponseBytes, status, context).catch((error: unknown) => {
        this.limiter.observe(permit, observation, { receivedAt });
        throw error;
      });
      // The server is done with the request once its body is read: free the in-flight slot before
      // parsing, so a waiting request goes out now (with an in-flight limit, every round of requests
      // otherwise waits for the parse; spec, Limits 6). One step with what the headers said.
      this.limiter.observe(permit, observation, { receivedAt, release: true });
      // The release hands the slot to a waiter, but the waiter sends only once this call stops
      // running: yield until the event loop's check phase, so the waiter sends first and answers
      // that arrived with this one are read and released before this one is parsed. With two
      // requests in flight finishing together, the second answer's next request otherwise waits
      // for the first's parse, and a server slot sits idle meanwhile.
      await setImmediate();
      if (read.kind === "tooLarge") {
        return { kind: "failure", failure: { kind: "unusable" }, error: () => read.error };
      }
      const bodyText = read.text;
      if (status >= 200 && status < 300) return success(op, status, response.headers, bodyText, context);
      const failure: AttemptFailure = { kind: "status", status, ...(retryAfter ? { retryAfter } : {}) };
      return {
        kind: "failure",
        failure,
        error: (reason) =>
          errorForResponse(
            { status, bodyText, ...(retryAfter ? { retryAfter } : {}) },
            context,
            reason ?? `gave up after ${attempt} attempt${attempt === 1 ? "" : "s"}`,
          ),
      };
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const requestTimedOut = timeoutController.signal.aborted;
      const networkError = errorForNetworkFailure(
        error,
        { requestTimedOut, responseStarted, requestTimeoutMs: this.timeouts.requestMs },
        context,
      );
      this.debug?.(`✗ ${op.name}: ${networkError.message}`);
      return {
        kind: "failure",
        failure: { kind: "network", mayHaveReachedServer: networkError.mayHaveReachedServer },
        error: () => networkError,
      };
    } finally {
      this.clock.clearTimer(timer);
      permit.release();
    }
  }
}
