/** What every layer shares and the platform knows nothing of. */
export { createNewFile, currentUid, ensurePrivateDirectory, readFileNoLink, writeFileAtomically } from "./privateFiles";
export { plainCredentialsWarning } from "./plainCredentials";
export { systemClock, epochClock, offsetClock, sleep, type Clock, type TimerHandle } from "./clock";
export { FallbackLadder, type Rung } from "./fallbackLadder";
export { processAlive } from "./processAlive";
export { redactText, sanitizeCause } from "./redact";
export {
  REDIS_URL_FORMS,
  RedisStoreError,
  SharedRedis,
  closeRedisConnections,
  isRedisUrl,
  mayCarryPassword,
  openRedis,
  SHARED_REDIS_TIMEOUTS,
  sharedRedis,
  warnUnusable,
} from "./redis";
export { setFallbackWarningSink, warnOnceAbout } from "./warnings";
