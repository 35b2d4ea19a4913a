/**
 * The rate-limited API client (provider/client/apiClient.ts):
 * `getApiClient(...).call(op, request)`, its error family, and the pieces it is built from for
 * tests and benchmarks.
 */
export {
  getApiClient,
  closeApiClients,
  DEFAULT_MAX_RESPONSE_BYTES,
  type ApiClient,
  type ApiClientOptions,
  type CallRequest,
  type CallResult,
  type ResponseBodyOf,
} from "./apiClient";
export * from "./errors";
export {
  resolveConnection,
  isLoopbackHost,
  ENV_BASE_URL,
  ENV_TOKEN,
  CONFIG_BASE_URL,
  CONFIG_TOKEN,
  type Connection,
  type ConnectionOptions,
} from "./connection";
export {
  RateLimiter,
  LIMITER_DEFAULTS,
  type LimiterOptions,
  type ConcurrencyOptions,
  type LimiterSnapshot,
  type WindowSnapshot,
  type Permit,
  type AdmissionRequest,
  type ResponseObservation,
} from "./limiter";
export { accountKey, resolveAccount, type ResolvedAccount } from "./accountKey";
export {
  shouldRetry,
  backoffDelayMs,
  rateLimitJitterMs,
  resolveRetryOptions,
  ENV_RETRY_BUDGET_MS,
  RETRY_DEFAULTS,
  type RetryOptions,
  type RetryDecision,
  type RetryState,
  type AttemptFailure,
} from "./retryPolicy";
export { TIMEOUT_DEFAULTS, ENV_TIMEOUT_MS, resolveTimeouts, type Timeouts } from "./timeouts";
export { systemClock, type Clock, type TimerHandle } from "./clock";
export { debugRequested, ENV_DEBUG } from "./debug";
export { redactText, REDACTED } from "../infrastructure/redact";
export { parseRetryAfter, parseRateLimitInfo, type RetryAfter, type RateLimitInfo } from "./rateLimitHeaders";
