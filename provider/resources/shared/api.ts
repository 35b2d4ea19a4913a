/**
 * The API client for CRUD calls: the process-wide client of the configured account (one
 * rate-limited client per account per process, DESIGN.md), with credentials resolved at call time.
 */
import { getApiClient, type ApiClient } from "../../client";
import { configuredConnection } from "./credentials";

/**
 * The shared client for the configured base URL and token (stack config, else environment).
 * Throws the client's `ApiConfigError` when no token is set anywhere; nothing is sent then.
 */
export function apiClient(): ApiClient {
  return getApiClient(configuredConnection());
}
