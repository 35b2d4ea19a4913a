/** The rate-limited API client, `getApiClient(...).call(op, request)`, its error family, and its pieces for tests. */
export { getApiClient, closeApiClients } from "./apiClient";
export { DEFAULT_MAX_RESPONSE_BYTES, type ApiClient, type ApiClientOptions, type CallRequest, type ResponseBodyOf } from "./contract";
export * from "./errors";
export {
  resolveConnection,
  isLoopbackHost,
  connectionRefusal,
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
  type RetryState,
  type AttemptFailure,
} from "./retryPolicy";
export { debugRequested } from "./debug";
export {
  type AccountIdentity,
  type AccountIdentityField,
  type ExplicitAccount,
  accountChanges,
  explicitAccountIdentity,
  explicitAccountProblems,
  normalisedBaseUrl,
} from "./explicitAccount";
