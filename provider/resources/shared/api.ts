/**
 * The API client for CRUD calls: the process-wide client of the configured account, with
 * credentials resolved at call time (one rate-limited client per account per process:
 * docs/ARCHITECTURE.md, "A request's path through the client").
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
