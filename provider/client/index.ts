/**
 * The rate-limited API client (provider/client/apiClient.ts):
 * `getApiClient(...).call(op, request)`, its error family, and the pieces it is built from for
 * tests and benchmarks. The limiter it admits requests through is provider/limiter/.
 */
export { getApiClient, closeApiClients } from "./apiClient";
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  type ApiClient,
  type ApiClientOptions,
  type CallRequest,
  type CallResult,
  type ResponseBodyOf,
} from "./contract";
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
export { debugRequested, ENV_DEBUG } from "./debug";
export { connectionRefusal } from "./connection";
export {
  type AccountIdentity,
  type AccountIdentityField,
  type ExplicitAccount,
  accountChanges,
  explicitAccountIdentity,
  explicitAccountProblems,
  normalisedBaseUrl,
} from "./explicitAccount";
