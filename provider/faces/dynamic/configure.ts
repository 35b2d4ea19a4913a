/**
 * The dynamic face's configuration: `configure`, which the dynamic-provider plugin calls once per
 * serialized provider (once per kind) with the stack configuration, and the settings it leaves for
 * every later call of every kind.
 *
 * The stack config arrives with namespaces kept and secrets unwrapped (pulumi/pulumi PR #17229),
 * and is resolved with the environment as every face's is (`provider/configuration/settings.ts`).
 *
 * Why this one module-level slot: the shim in every stack's state calls `configure(request)` and
 * `resourceProvider(kind)` of `pulumi-adplatform/provider` by name, as separate calls with nothing
 * to carry between them, and one plugin process serves one stack's configuration. So what
 * `configure` received has to outlive it here. It is kept in memory only: never in inputs, outputs,
 * state or the serialized `__provider` text, which must hold no credentials
 * (sdk/resources/providerShim.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { resolveSettings, stackConfigLayer, type Settings } from "../../configuration";

/** What `configure` reads the stack config through (the dynamic provider's `Config`). */
export interface ConfigSource {
  get(key: string): unknown;
}

/** The stack config `configure` received in this process; undefined until it runs. */
let received: ConfigSource | undefined;

/** Takes the stack config of a `configure` call (the last call's applies). */
export function configureFrom(config: ConfigSource): void {
  received = config;
}

/**
 * The settings in force: the stack config `configure` received, else the environment. Resolved per
 * call, so a call before `configure` (or without one) reads the environment.
 */
export function configuredSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const config = received;
  return resolveSettings(config === undefined ? [] : [stackConfigLayer((key) => config.get(key))], env);
}

/** The provider's `configure`: takes the stack config (`adplatform:baseUrl`, `adplatform:token`, ...). */
export async function configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureFrom(request.config);
}
