/**
 * The rate limiter (provider/limiter/limiter.ts): one per account, deciding with a pure model
 * (limiterModel.ts) over a state kept in a store (memory, a private file, Redis) that every process
 * of the account shares.
 */
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
export { parseRetryAfter, parseRateLimitInfo, type RetryAfter, type RateLimitInfo } from "./rateLimitHeaders";
export { resetLimiters, sharedLimiter } from "./limiterRegistry";
export { type LimitWait, backlogText, waitStatusText } from "./limiterWaits";
export { type ResponseHeaders } from "./rateLimitHeaders";
