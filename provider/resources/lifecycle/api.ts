/** The API client for lifecycle calls: one rate-limited client per account per process, so resources share its limits. */
import { ApiConfigError, getApiClient, type ApiClient, type CallRequest } from "../../client";
import { backlogText, type LimitWait, waitStatusText } from "../../limiter";
import type { OperationSpec } from "../../catalog";
import { rateLimitShareFailure, type Settings } from "../../configuration";
import type { LifecycleContext } from "./context";

/** The share of `settings` (default 1); an `ApiConfigError` naming where it was set when it is not usable. */
export function rateLimitShareOf(settings: Pick<Settings, "rateLimitShare" | "origins">): number {
  const failure = rateLimitShareFailure(settings);
  if (failure !== undefined) throw new ApiConfigError("rateLimitShare", failure);
  return settings.rateLimitShare === undefined ? 1 : Number(settings.rateLimitShare);
}

/** The shared client of the context's settings; throws the client's `ApiConfigError` (no token, a bad share). */
export function apiClient(ctx: LifecycleContext): ApiClient {
  // Only these fields: whatever else the settings hold must not reach the client's options.
  const { baseUrl, token, limitsUrl } = ctx.settings;
  const client = getApiClient({ baseUrl, token, limitsUrl, rateLimitShare: rateLimitShareOf(ctx.settings) });
  const { status } = ctx;
  if (status === undefined) return client;
  // A wait shows in the resource's status; a busy stretch's first report also says what the queue costs.
  const onWait = (wait: LimitWait) => {
    status(waitStatusText(wait));
    if (wait.backlog) void ctx.info(backlogText(wait.backlog)).catch(() => undefined);
  };
  const call = (op: OperationSpec | string, request: CallRequest = {}) => client.call(op, { ...request, onWait });
  return { baseUrl: client.baseUrl, limiter: client.limiter, call } as ApiClient;
}
