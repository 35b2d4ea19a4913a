/**
 * The dynamic face's `configure`, called once per serialized provider (per kind) with the stack config
 * (namespaces kept, secrets unwrapped: pulumi/pulumi PR #17229). One module-level slot: the shim calls
 * `configure` and `resourceProvider` by name as separate calls, and one plugin process serves one stack.
 * In memory only, never in state or the `__provider` text (sdk/resources/providerShim.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { resolveSettings, stackConfigLayer, type Settings } from "../../configuration";

export type ConfigSource = Pick<pulumi.dynamic.Config, "get">;

let received: ConfigSource | undefined;

/** The last call's config applies. */
export function configureFrom(config: ConfigSource): void {
  received = config;
}

/** Resolved per call, so a call before `configure` (or without one) reads the environment. */
export function configuredSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const config = received;
  return resolveSettings(config === undefined ? [] : [stackConfigLayer((key) => config.get(key))], env);
}

export async function configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureFrom(request.config);
}
