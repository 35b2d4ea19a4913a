/** The rate limiter: one per account, deciding with a pure model over a state every process shares (docs/rate-limiter.md). */
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
export { parseRetryAfter, parseRateLimitInfo, type RetryAfter, type RateLimitInfo, type ResponseHeaders } from "./rateLimitHeaders";
export { resetLimiters, sharedLimiter } from "./limiterRegistry";
export { type LimitWait, backlogText, waitStatusText } from "./limiterWaits";
