/** The rate limiter: one per account, deciding with a pure model over a state every process shares (docs/rate-limiter.md). */
export { RateLimiter, type LimiterOptions, type Permit } from "./limiter";
export { parseRetryAfter, parseRateLimitInfo, type RetryAfter, type ResponseHeaders } from "./rateLimitHeaders";
export { resetLimiters, sharedLimiter } from "./limiterRegistry";
export { type LimitWait, backlogText, waitStatusText } from "./limiterWaits";
