/**
 * `resourceProvider(kind)`, which the serialized shim of every resource calls by name: the kind's
 * lifecycle adapted to the dynamic-provider protocol, with the dynamic face's context. In the plugin
 * process, the first lookup also starts `./engineWatch`.
 */
import type { LifecycleContext, ResourceKind } from "../../resources";
import { CreateSession, resourceLifecycle } from "../../resources";
import { withAccountProperty } from "./accountProperty";
import { dynamicProvider, type KindProvider } from "./adapter";
import { configuredSettings } from "./configure";
import { setFallbackWarningSink } from "../../infrastructure";
import { pluginEngineAddress } from "../engineAddress";
import { engineFallbackSink, engineInfo, engineStatus, engineWarn, useEngineAddress } from "../engineLog";
import { watchEngine } from "./engineWatch";

/** The journaled creates of this plugin process. */
const createSession = new CreateSession();

/** Read at call time, since `configure` may run after the first lookup. */
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

/** Built once per kind; an unknown kind (a newer release's state) throws a TypeError naming the known ones. */
export function resourceProvider(kind: ResourceKind): KindProvider<any, any> {
  watchEngine();
  let provider = providers.get(kind);
  if (provider === undefined) {
    if (providers.size === 0) {
      const address = pluginEngineAddress();
      useEngineAddress(address);
      if (address !== undefined) setFallbackWarningSink(engineFallbackSink);
    }
    provider = dynamicProvider(withAccountProperty(resourceLifecycle(kind)), dynamicContext);
    providers.set(kind, provider);
  }
  return provider;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
