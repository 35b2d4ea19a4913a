/**
 * The API client for lifecycle calls: the process-wide client of the context's account (one
 * rate-limited client per account per process, so every resource of an update shares the account's
 * limits: provider/client/limiter.ts), with credentials resolved at call time.
 */
import { getApiClient, type ApiClient } from "../../client";
import { rateLimitShareOf } from "../../configuration/rateLimitShare";
import type { LifecycleContext } from "./context";

/**
 * The shared client for the context's base URL and token, whose limits are shared through the
 * context's limits URL and spent within its share. Throws the client's `ApiConfigError` when no
 * token is set anywhere, a `RangeError` naming `rateLimitShare` when it is not a fraction; nothing
 * is sent then.
 */
export function apiClient(ctx: LifecycleContext): ApiClient {
  // Only these fields: whatever else the settings hold must not reach the client's options.
  const { baseUrl, token, limitsUrl } = ctx.settings;
  return getApiClient({ baseUrl, token, limitsUrl, limiterOptions: { share: rateLimitShareOf(ctx.settings) } });
}
