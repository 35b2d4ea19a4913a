/**
 * `resourceProvider(kind)`, the function the serialized shim of every resource calls by name at run
 * time: the kind's lifecycle adapted to the dynamic-provider protocol, with the dynamic face's
 * context (warnings through the engine connection of `../engineLog`, the settings `configure` left
 * in `./configure` unless the resource names its own account: `./accountProperty`; the URN comes
 * from the SDK's hidden input, `./identityInput`). In the plugin process, the first lookup also
 * starts `./engineWatch`.
 */
import type { LifecycleContext, ResourceKind } from "../../resources";
import { CreateSession, resourceLifecycle } from "../../resources";
import { withAccountProperty } from "./accountProperty";
import { dynamicProvider, type KindProvider } from "./adapter";
import { configuredSettings } from "./configure";
import { setFallbackWarningSink } from "../../infrastructure";
import { pluginEngineAddress } from "../engineAddress";
import { engineInfo, engineStatus, engineWarn, useEngineAddress } from "../engineLog";
import { watchEngine } from "./engineWatch";

/**
 * The journaled creates of this plugin process: the shim looks a kind's provider up by name, so the
 * face's state lives beside the providers it builds.
 */
const createSession = new CreateSession();

/** The context of one call (about `urn` when known): read at call time, since `configure` may run after the first lookup. */
function dynamicContext(urn?: string): LifecycleContext {
  return {
    warn: (message) => engineWarn(message),
    info: (message) => engineInfo(message),
    status: (message) => engineStatus(message, urn),
    settings: configuredSettings(),
    createSession,
  };
}

// Each kind has its own input and output types; the table holds them all, so its values are `any`.
/* eslint-disable @typescript-eslint/no-explicit-any */
const providers = new Map<ResourceKind, KindProvider<any, any>>();

/**
 * The dynamic provider of one resource kind, built once per kind. Throws a TypeError naming the
 * known kinds for anything else (a state written by a newer version of this package, for example).
 */
export function resourceProvider(kind: ResourceKind): KindProvider<any, any> {
  watchEngine();
  let provider = providers.get(kind);
  if (provider === undefined) {
    if (providers.size === 0) {
      const address = pluginEngineAddress();
      useEngineAddress(address);
      // In the plugin, a shared place given up (the limits URL's Redis, ...) is a warning of the update.
      if (address !== undefined)
        setFallbackWarningSink((message, severity) => void (severity === "info" ? engineInfo : engineWarn)(message));
    }
    provider = dynamicProvider(withAccountProperty(resourceLifecycle(kind)), dynamicContext);
    providers.set(kind, provider);
  }
  return provider;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
