/**
 * The fault suite's environment: the lifecycle environment of `tests/helpers` (simulator with a
 * recognisable token, fake engine, the real dynamic-provider plugin, serialized providers), with the
 * plugin's client timeout scaled down through `ADPLATFORM_TIMEOUT_MS` and its debug lines on
 * (`ADPLATFORM_DEBUG=1`, written to the plugin's stderr, which the secrets test searches).
 */
import { cleanEnv, PluginCallError } from "../helpers/dynamicProviderHarness";
import { startLifecycleEnv, type LifecycleEnv, type LifecycleEnvOptions } from "../helpers/lifecycleEnv";

/**
 * The plugin's whole-attempt timeout: short, so a `delay` fault longer than it is a timeout, yet far
 * above any loopback answer on a loaded machine (a spurious timeout would make a POST ambiguous).
 */
export const PLUGIN_TIMEOUT_MS = 2_000;
/** A `delay` fault well past `PLUGIN_TIMEOUT_MS`. */
export const SLOW_MS = 3_500;

/** Starts the lifecycle environment with scaled timeouts and debug output in the plugin. */
export function startFaultEnv(options: LifecycleEnvOptions = {}): Promise<LifecycleEnv> {
  return startLifecycleEnv({
    env: () => cleanEnv({ ADPLATFORM_TIMEOUT_MS: String(PLUGIN_TIMEOUT_MS), ADPLATFORM_DEBUG: "1" }),
    ...options,
  });
}

/** The message of a failed plugin call (the gRPC details, which the engine shows the user). */
export async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof PluginCallError) return error.details;
    throw error;
  }
  throw new Error("expected the plugin call to fail, and it succeeded");
}

/**
 * Polls `condition` until it holds (a server-side effect that finishes after the client gave up).
 * Bounded by a count of polls, never asserted as a duration.
 */
export async function eventually(condition: () => boolean, what: string, polls = 600): Promise<void> {
  for (let i = 0; i < polls; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}
