/**
 * The API client for lifecycle calls: the process-wide client of the context's account (one
 * rate-limited client per account per process, so every resource of an update shares the account's
 * limits: provider/limiter/limiter.ts), with credentials resolved at call time.
 */
import { ApiConfigError, getApiClient, type ApiClient, type CallRequest } from "../../client";
import { backlogText, type LimitWait, waitStatusText } from "../../limiter";
import type { OperationSpec } from "../../catalog";
import { rateLimitShareFailure } from "../../configuration";
import type { Settings } from "../../configuration";
import type { LifecycleContext } from "./context";

/** The share of `settings` (1 when it is not set); an `ApiConfigError` naming the setting where it was set when it is not usable. */
export function rateLimitShareOf(settings: Pick<Settings, "rateLimitShare" | "origins">): number {
  const failure = rateLimitShareFailure(settings);
  if (failure !== undefined) throw new ApiConfigError("rateLimitShare", failure);
  return settings.rateLimitShare === undefined ? 1 : Number(settings.rateLimitShare);
}

/**
 * The shared client for the context's base URL and token, whose limits are shared through the
 * context's limits URL and spent within its share. Throws the client's `ApiConfigError` when no
 * token is set anywhere or `rateLimitShare` is not a fraction; nothing is sent then.
 */
export function apiClient(ctx: LifecycleContext): ApiClient {
  // Only these fields: whatever else the settings hold must not reach the client's options.
  const { baseUrl, token, limitsUrl } = ctx.settings;
  const client = getApiClient({ baseUrl, token, limitsUrl, rateLimitShare: rateLimitShareOf(ctx.settings) });
  const { status } = ctx;
  if (status === undefined) return client;
  // While a call waits on the limits: the resource's status says for how long; a busy stretch's
  // first report also says, once, what the whole queue costs.
  const onWait = (wait: LimitWait) => {
    status(waitStatusText(wait));
    if (wait.backlog) void ctx.info(backlogText(wait.backlog)).catch(() => undefined);
  };
  const call = (op: OperationSpec | string, request: CallRequest = {}) => client.call(op, { ...request, onWait });
  return { baseUrl: client.baseUrl, limiter: client.limiter, call } as ApiClient;
}
