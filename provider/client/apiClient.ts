/**
 * The rate-limited API client: one engine for every catalog operation. Per call it validates, then
 * loops: wait for the limiter, send once over the shared pool, let the limiter learn from the answer,
 * ask the retry policy. One client per account per process: the account's limits are shared (spec,
 * Authentication 3), so its calls draw from one limiter.
 */
import { setImmediate } from "node:timers/promises";
import { inspect } from "node:util";
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
import { type Attempt, readBody, schemaIssues, success } from "./response";
import { errorForNetworkFailure } from "./networkErrors";
import { closePools, sharedPool } from "./pools";
import { RETRY_DEFAULTS, resolveRetryOptions, type RetryOptions, shouldRetry } from "./retryPolicy";
import { resolveTimeouts, type Timeouts } from "./timeouts";

const clients = new Map<string, ApiClient>();

/**
 * The shared client of the account `options` name (else the environment's): same base URL and token,
 * same client, limiter and pool. @throws ApiConfigError (see `resolveConnection`).
 */
export function getApiClient(options: ApiClientOptions = {}): ApiClient {
  const { connection, key } = resolveAccount(options);
  // One client per account and share, all of an account on its one limiter.
  const clientKey = `${key}\u0000${options.rateLimitShare ?? ""}`;
  const client =
    clients.get(clientKey) ?? new HttpApiClient(connection, options, sharedLimiter(key, options.limiterOptions, options.limitsUrl));
  clients.set(clientKey, client);
  return client;
}

/** Forgets every client and limiter and closes the pools (tests, shutdown); older clients must not be used. */
export async function closeApiClients(): Promise<void> {
  clients.clear();
  resetLimiters();
  await closePools();
}

/** A validated request, ready to send. */
interface Prepared {
  readonly op: OperationSpec;
  /** With query, relative to the origin. */
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

  /** Logging shows where the client points, never its credentials. */
  [inspect.custom](): string {
    return `ApiClient { baseUrl: '${this.baseUrl}' }`;
  }

  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  async call(opOrName: OperationSpec | string, request: CallRequest = {}): Promise<CallResult<never>> {
    const prepared = this.prepare(opOrName, request);
    const { op } = prepared;
    const { signal, onWait } = request;
    let firstSentAt: number | undefined;
    let rateLimited = 0;
    let rateLimitedInARow = 0;
    // Every attempt queues at the call's place.
    const queuedSince = this.clock.now();
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
      const elapsedMs = this.clock.now() - firstSentAt;
      const state = { attempt, rateLimited, rateLimitedInARow, elapsedMs, method: op.method, idempotent: op.idempotent };
      const decision = shouldRetry(failure, state, this.retry, this.random);
      if (!decision.retry) {
        this.debug?.(`${op.name}: giving up: ${decision.reason}`);
        throw outcome.error(decision.reason);
      }
      // A 429 with `Retry-After` within the steady window reports that window full (spec, Limits 5), as
      // the limiter counts it: re-enter the queue at once, in place. Sleeping Retry-After plus jitter would
      // leave the call behind the account's others, and near a run's end alone in a burst window.
      if (refused && failure.retryAfter?.kind === "delay" && failure.retryAfter.ms <= this.limiter.options.steadyWindowMs) {
        this.debug?.(`${op.name}: retry when the refused window has room, not after ${decision.delayMs} ms: ${decision.reason}`);
        continue;
      }
      this.debug?.(`${op.name}: retry in ${decision.delayMs} ms: ${decision.reason}`);
      await sleep(this.clock, decision.delayMs, signal);
    }
  }

  /** Local validation; throws `ApiRequestValidationError` so nothing invalid is ever sent. */
  private prepare(opOrName: OperationSpec | string, request: CallRequest): Prepared {
    const op = typeof opOrName === "string" ? OPERATIONS.find((each) => each.name === opOrName) : opOrName;
    if (!op) throw new ApiRequestValidationError(`no operation named "${opOrName as string}" in the catalog`, {});
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
    // spec, rule 9 and Limits 7: one `fields=a,b` parameter, commas literal, each name encoded.
    const fieldsText = fields.length > 0 ? `fields=${fields.map(encodeURIComponent).join(",")}` : "";
    const queryText = [query.toString(), fieldsText].filter(Boolean).join("&");
    const fullPath = queryText ? `${path}?${queryText}` : path;

    let bodyText: string | undefined;
    if (op.request) {
      if (request.body === undefined) throw refuse(`${op.name} needs a request body`);
      const parsed = op.request.safeParse(request.body);
      if (!parsed.success) {
        const { issues, summary } = schemaIssues(parsed.error);
        throw refuse(`body does not match the ${op.name} request schema: ${summary}`, issues);
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
    this.debug?.(
      `→ ${op.name} (${op.method} ${prepared.path}) attempt ${attempt}, cost ${prepared.cost}, Authorization: Bearer [REDACTED]`,
    );
    try {
      const response = await sharedPool(this.connection.origin, this.timeouts.connectMs).request({
        path: prepared.path,
        method: op.method,
        headers: {
          authorization: `Bearer ${this.connection.token}`,
          accept: "application/json",
          "user-agent": "pulumi-adplatform",
          ...(prepared.bodyText !== undefined && { "content-type": "application/json" }),
        },
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
      // The server is done once the body is read: free the in-flight slot before parsing, so a waiting
      // request goes out now instead of after the parse (spec, Limits 6).
      this.limiter.observe(permit, observation, { receivedAt, release: true });
      // The waiter sends only once this call stops running: yield so it sends, and answers that arrived
      // with this one are released, before this one is parsed (else each waits for the other's parse).
      await setImmediate();
      if (read.kind === "tooLarge") return { kind: "failure", failure: { kind: "unusable" }, error: () => read.error };
      if (status >= 200 && status < 300) return success(op, status, response.headers, read.text, context);
      const failure = { kind: "status", status, ...(retryAfter ? { retryAfter } : {}) } as const;
      return { kind: "failure", failure, error: (reason) => errorForResponse({ ...failure, bodyText: read.text }, context, reason) };
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const networkError = errorForNetworkFailure(
        error,
        { requestTimedOut: timeoutController.signal.aborted, responseStarted, requestTimeoutMs: this.timeouts.requestMs },
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
