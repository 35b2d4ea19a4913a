/** What a call of the API client takes and gives: `ApiClient`, its options, a request, a result (engine: apiClient.ts). */
import type { z } from "zod";
import type { OperationName, OperationNamed, OperationSpec } from "../catalog";
import type { LimiterOptions, LimitWait, RateLimiter } from "../limiter";
import type { ConnectionOptions } from "./connection";
import type { RetryOptions } from "./retryPolicy";
import type { Timeouts } from "./timeouts";

// Decision (not shown in spec, Limits 8): no response size is given. 10 MiB is far above any read
// of this subset and keeps a misbehaving server from filling memory.
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024; // 10 MiB

/** Options of `getApiClient`: only an account's first call configures its client and limiter (but for `rateLimitShare`). */
export interface ApiClientOptions extends ConnectionOptions {
  readonly limiterOptions?: Partial<LimiterOptions>;
  /** `jitterWindowMs` defaults to the limiter's burst window. */
  readonly retryOptions?: Partial<RetryOptions>;
  readonly timeouts?: Partial<Timeouts>;
  /** Bytes (`DEFAULT_MAX_RESPONSE_BYTES`). */
  readonly maxResponseBytes?: number;
  /** Receives debug lines (token redacted); else `ADPLATFORM_DEBUG=1` prints them to stderr. */
  readonly onDebug?: (line: string) => void;
  /** Randomness of the backoff jitter, in [0, 1) (tests). */
  readonly random?: () => number;
  /** The Redis URL the account's limits are shared through; none: `ADPLATFORM_LIMITS_URL`, else this machine's state file. */
  readonly limitsUrl?: string;
  /** The share of every window this caller may spend, in (0, 1]; per caller, on the account's one limiter. */
  readonly rateLimitShare?: number;
}

/** One request of `ApiClient.call`, in wire shape. */
export interface CallRequest {
  readonly pathParams?: Readonly<Record<string, string>>;
  /** Only for operations that accept them (spec, rule 9). */
  readonly query?: Readonly<Record<string, string>>;
  /** Subresources sent as `fields=a,b`; each costs one more call (spec, Limits 7). */
  readonly fields?: readonly string[];
  /** In wire (snake_case) shape. */
  readonly body?: unknown;
  /** Aborts waiting, sending and retrying; the call rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Runs before each admitted attempt is sent (the create journal records here); if it throws, nothing is sent. */
  readonly beforeSend?: (attempt: number) => void | Promise<void>;
  /** Runs when an attempt is over. With `beforeSend` it tells when a request is on the wire (when an abort leaves the outcome unknown). */
  readonly afterAttempt?: (attempt: number) => void;
  /** Told while the call waits on the rate limits longer than a few seconds (`limiterWaits.ts`). */
  readonly onWait?: (wait: LimitWait) => void;
}

export interface CallResult<T = unknown> {
  readonly status: number;
  /** Parsed by the operation's response schema (wire shape); undefined for 204. */
  readonly body: T;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
}

export type ResponseBodyOf<O> = O extends { readonly response: infer R extends z.ZodType } ? z.output<R> : unknown;

/** A client bound to one account. */
export interface ApiClient {
  /** Normalised base URL. */
  readonly baseUrl: string;
  /** Shared by every client of the account in this process. */
  readonly limiter: RateLimiter;
  /** Calls a catalog operation: validates (nothing sent when invalid), waits for the limiter, retries, parses. @throws ApiError */
  call<N extends OperationName>(op: N, request?: CallRequest): Promise<CallResult<ResponseBodyOf<OperationNamed<N>>>>;
  call<O extends OperationSpec>(op: O, request?: CallRequest): Promise<CallResult<ResponseBodyOf<O>>>;
  call(op: OperationSpec | string, request?: CallRequest): Promise<CallResult>;
}
