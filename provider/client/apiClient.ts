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
 * The request engine's steps (prepare, attempt, read the body, parse the success) share one prepared
 * request and one attempt outcome, so they are one class; every part with a concern of its own lives
 * in its own module (connection, limiter, retry policy, error family, timeouts, pools, rate-limit
 * headers).
 */
import { setImmediate } from "node:timers/promises";
import { inspect } from "node:util";
import type { z } from "zod";
import type { Dispatcher } from "undici";
import { parseJson } from "../wire";
import { buildPath, MAX_PATH_PARAM_LENGTH, OPERATIONS, pathParamProblem, type OperationName, type OperationNamed } from "../catalog";
import type { OperationSpec } from "../catalog";
import { resolveAccount } from "./accountKey";
import { type Clock, sleep, systemClock } from "../infrastructure";
import type { Connection, ConnectionOptions } from "./connection";
import { type DebugSink, debugSink } from "./debug";
import { type ApiError, ApiRequestValidationError, ApiResponseError, type RequestContext, type ValidationIssue } from "./errors";
import { type ErrorContext, errorForResponse } from "./httpErrors";
import type { LimiterOptions, Permit, RateLimiter, LimitWait } from "../limiter";
import { resetLimiters, sharedLimiter, parseRateLimitInfo, parseRetryAfter, type ResponseHeaders } from "../limiter";
import { errorForNetworkFailure } from "./networkErrors";
import { closePools, sharedPool } from "./pools";
import { type AttemptFailure, RETRY_DEFAULTS, resolveRetryOptions, type RetryOptions, shouldRetry } from "./retryPolicy";
import { resolveTimeouts, type Timeouts } from "./timeouts";

// Decision (not shown in spec, Limits 8): no response size is given. 10 MiB is far above any read
// of this subset and keeps a misbehaving server from filling memory.
/** Largest response body read, in bytes, unless `maxResponseBytes` says otherwise. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024; // 10 MiB

/** Options of `getApiClient`. Only the first call for an account configures its client and limiter (but for `rateLimitShare`). */
export interface ApiClientOptions extends ConnectionOptions {
  /** Limiter tunables (window lengths to scale time in tests, concurrency, clock). */
  readonly limiterOptions?: Partial<LimiterOptions>;
  /**
   * Retry tunables; `ADPLATFORM_RETRY_BUDGET_MS` sets `maxTotalMs` when this does not, and
   * `jitterWindowMs` defaults to the limiter's burst window.
   */
  readonly retryOptions?: Partial<RetryOptions>;
  /** Per-attempt timeouts; `ADPLATFORM_TIMEOUT_MS` sets `requestMs` when this does not. */
  readonly timeouts?: Partial<Timeouts>;
  /** Largest response body accepted, bytes (`DEFAULT_MAX_RESPONSE_BYTES`). */
  readonly maxResponseBytes?: number;
  /** Receives debug lines (token redacted); else `ADPLATFORM_DEBUG=1` prints them to stderr. */
  readonly onDebug?: (line: string) => void;
  /** Randomness of the backoff jitter, in [0, 1) (tests). */
  readonly random?: () => number;
  /**
   * The Redis URL through which the account's limits are shared across machines (the caller's
   * resolved `limitsUrl` setting); none: `ADPLATFORM_LIMITS_URL`, else this machine's state file.
   */
  readonly limitsUrl?: string;
  /**
   * The share of every window this caller's requests may spend, in (0, 1] (the caller's resolved
   * `rateLimitShare`). Per caller, not per account: callers of one account with different shares
   * share its limiter, and each request fits within its own caller's share. None: the limiter's.
   */
  readonly rateLimitShare?: number;
}

/** One request of `ApiClient.call`, in wire shape. */
export interface CallRequest {
  /** Values of the path's `{param}` segments (encoded by the catalog's `buildPath`). */
  readonly pathParams?: Readonly<Record<string, string>>;
  /** Query parameters (spec, rule 9); only for operations that accept them. */
  readonly query?: Readonly<Record<string, string>>;
  /** Subresources sent as `fields=a,b`; each costs one more call (spec, Limits 7). */
  readonly fields?: readonly string[];
  /** Request body in wire (snake_case) shape; validated with the operation's request schema. */
  readonly body?: unknown;
  /** Aborts waiting, sending and retrying; the call rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Runs just before each attempt is sent, once the limiter admitted it; if it throws, nothing is
   * sent and the call rejects with that error. The create journal records a create here, so its
   * record never announces a request that is still waiting in the queue.
   */
  readonly beforeSend?: (attempt: number) => void | Promise<void>;
  /**
   * Runs when an attempt is over (answered or failed), before the call returns or waits to retry.
   * With `beforeSend` it tells when a request is on the wire: only then may aborting it leave the
   * outcome unknown.
   */
  readonly afterAttempt?: (attempt: number) => void;
  /** Told while the call waits on the account's rate limits longer than a few seconds (`limiterWaits.ts`). */
  readonly onWait?: (wait: LimitWait) => void;
}

/** A successful response. */
export interface CallResult<T = unknown> {
  readonly status: number;
  /** Parsed by the operation's response schema (wire shape); undefined for 204. */
  readonly body: T;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
}

/** The parsed body type of operation `O`. */
export type ResponseBodyOf<O> = O extends { readonly response: infer R extends z.ZodType } ? z.output<R> : unknown;

/** A client bound to one account. */
export interface ApiClient {
  /** Normalised base URL. */
  readonly baseUrl: string;
  /** The account's limiter (shared by every client of the account in this process). */
  readonly limiter: RateLimiter;
  /**
   * Calls one catalog operation, by spec or by name. Validates before sending (nothing is sent
   * when invalid), waits for the rate limiter, retries per the retry policy, and parses the
   * response with the operation's schema.
   *
   * @throws ApiError subclasses: `ApiRequestValidationError` (nothing sent), `ApiValidationError`,
   *   `ApiAuthError`, `ApiNotFoundError`, `ApiRateLimitError`, `ApiServerError`, `ApiNetworkError`,
   *   `ApiResponseError`, or `ApiError` for other statuses.
   */
  call<N extends OperationName>(op: N, request?: CallRequest): Promise<CallResult<ResponseBodyOf<OperationNamed<N>>>>;
  call<O extends OperationSpec>(op: O, request?: CallRequest): Promise<CallResult<ResponseBodyOf<O>>>;
  call(op: OperationSpec | string, request?: CallRequest): Promise<CallResult>;
}

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

/** Dotted property path of a zod issue (`items.0.id`); `""` for the value itself. */
function issuePath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

function issuesOf(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }));
}

/**
 * The top-level `id` of a create's success body that failed its schema, when it is usable as an id
 * (spec, Conventions: identifiers are strings; a safe integer is read as its decimal string, as
 * `WireId` does). Anything else (no object, no id, an empty, overlong or control-character id) is
 * not guessed at. An id that could not be adopted (longer than a path parameter, `.` or `..`) is dropped.
 */
function bestEffortId(json: unknown): string | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const id: unknown = (json as Record<string, unknown>).id;
  // An integer beyond 2^53 arrives from `parseJson` as a bigint, every digit kept.
  const text = typeof id === "string" ? id : typeof id === "bigint" || Number.isSafeInteger(id) ? String(id) : undefined;
  if (text === undefined || text.trim() === "" || text === "." || text === ".." || text.length > MAX_PATH_PARAM_LENGTH) return undefined;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(text) ? undefined : text;
}

/** Response headers as one string per name. */
function flattenHeaders(headers: ResponseHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** A validated request, ready to send. */
interface Prepared {
  readonly op: OperationSpec;
  /** Path with query, relative to the origin. */
  readonly path: string;
  readonly bodyText?: string;
  readonly cost: number;
  readonly context: RequestContext;
}

/** The outcome of one attempt. */
type Attempt =
  | { readonly kind: "success"; readonly result: CallResult }
  | {
      readonly kind: "failure";
      readonly failure: AttemptFailure;
      /** The error to throw when the call stops here; `reason` says why (the retry policy's words). */
      readonly error: (reason?: string) => ApiError;
    };

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
      const read = await this.readBody(response, status, context).catch((error: unknown) => {
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
      if (status >= 200 && status < 300) return this.success(op, status, response.headers, bodyText, context);
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

  /** Reads the body up to the size cap; a larger body is abandoned, not buffered. */
  private async readBody(
    response: Dispatcher.ResponseData,
    status: number,
    context: ErrorContext,
  ): Promise<{ kind: "text"; text: string } | { kind: "tooLarge"; error: ApiError }> {
    const limit = this.maxResponseBytes;
    const tooLarge = (size: string) => {
      // Abandon the body: the socket is closed rather than drained. The abort error it emits is ours.
      response.body.once("error", () => undefined);
      response.body.destroy();
      return {
        kind: "tooLarge" as const,
        error: new ApiResponseError(`response body ${size} exceeds the ${limit}-byte limit; not read`, { ...context, status }),
      };
    };
    const declared = Number(response.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return tooLarge(`of ${declared} bytes`);
    // A declared length within the cap is read whole: undici stops at the declared length, and
    // reading in one step costs fewer turns of the event loop than iterating the chunks.
    if (Number.isFinite(declared)) return { kind: "text", text: await response.body.text() };
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > limit) return tooLarge(`of more than ${limit} bytes`);
      chunks.push(buffer);
    }
    return { kind: "text", text: Buffer.concat(chunks).toString("utf8") };
  }

  /** A 2xx: parse with the operation's schema (tolerant reader); 204 or no schema → undefined. */
  private success(op: OperationSpec, status: number, headers: ResponseHeaders, bodyText: string, context: ErrorContext): Attempt {
    const result = (body: unknown): Attempt => ({
      kind: "success",
      result: { status, body, headers: flattenHeaders(headers) },
    });
    if (status === 204 || !op.response) return result(undefined);
    let json: unknown;
    try {
      json = parseJson(bodyText);
    } catch {
      // Unparseable JSON is damage in transit or a failing server: idempotent operations may retry.
      const error = new ApiResponseError("response body is not valid JSON", { ...context, status });
      return { kind: "failure", failure: { kind: "malformed" }, error: () => error };
    }
    const parsed = op.response.safeParse(json);
    if (parsed.success) return result(parsed.data);
    const issues = issuesOf(parsed.error);
    const first = issues[0];
    const createdId = op.method === "POST" ? bestEffortId(json) : undefined;
    const error = new ApiResponseError(
      `response body does not match the ${op.name} schema: ${first ? `${first.path || "(body)"}: ${first.message}` : "invalid"}`,
      { ...context, status, ...(first ? { field: first.path } : {}), issues, ...(createdId !== undefined ? { createdId } : {}) },
    );
    return { kind: "failure", failure: { kind: "unusable" }, error: () => error };
  }
}
