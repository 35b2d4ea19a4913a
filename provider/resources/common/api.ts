/**
 * The API client for lifecycle calls: the process-wide client of the context's account (one
 * rate-limited client per account per process, so every resource of an update shares the account's
 * limits: docs/ARCHITECTURE.md, "The rate limiter"), with credentials resolved at call time.
 */
import { getApiClient, type ApiClient } from "../../client";
import type { LifecycleContext } from "../core/context";

/**
 * The shared client for the context's base URL and token (stack config, else environment).
 * Throws the client's `ApiConfigError` when no token is set anywhere; nothing is sent then.
 */
export function apiClient(ctx: LifecycleContext): ApiClient {
  // Only the two fields: whatever else a face's object holds must not reach the client's options.
  const { baseUrl, token } = ctx.connection;
  return getApiClient({ baseUrl, token });
}
