/**
 * The dynamic face: one resource kind's `ResourceLifecycle` as the `pulumi.dynamic.ResourceProvider`
 * the serialized shim delegates to (sdk/resources/providerShim.ts).
 *
 * What it adds to the lifecycle is the dynamic-provider plugin's own protocol:
 * - the plugin keeps the serialized provider text under `__provider` in every property map it
 *   passes; it is not an input of ours, so it is taken out before the lifecycle sees the map (the
 *   plugin puts it back into every inputs and outputs map it returns);
 * - a `read` of an object that is gone answers an empty id, which makes the engine drop it;
 * - results are renamed to the plugin's fields (`outs`, `props`);
 * - the SDK's hidden identity input (`./identityInput`) becomes the context's `urn`, and is kept in
 *   `check`'s answer so that it reaches `create`, and in the outputs `create`, `update` and `read`
 *   return, since the plugin hands `delete` only the outputs (a delete records the object it leaves
 *   on the platform under the resource's URN: resources/lifecycle/leftBehind.ts).
 * Each call gets a fresh context from `context`, so configuration that arrives after the provider
 * was built still applies.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { LifecycleContext, ResourceLifecycle } from "../../resources";
import { IDENTITY_INPUT, identityOf, withIdentityOf } from "./identityInput";

/** The key under which the plugin passes the serialized provider text in every property map. */
export const PROVIDER_KEY = "__provider";

/**
 * What `resourceProvider(kind)` returns: every method of `pulumi.dynamic.ResourceProvider` but
 * `configure` (the package configures once for all kinds). All are required because the serialized
 * shim forwards every method.
 */
export type KindProvider<Inputs, Outputs> = Required<Omit<pulumi.dynamic.ResourceProvider<Inputs, Outputs>, "configure">>;

/** A copy of `props` without the plugin's `__provider` key and our hidden identity (an absent map reads as empty). */
export function withoutProviderKey<T>(props: unknown): T {
  const { [PROVIDER_KEY]: _provider, [IDENTITY_INPUT]: _identity, ...rest } = (props ?? {}) as Record<string, unknown>;
  return rest as T;
}

/** Adapts `lifecycle` to the dynamic-provider protocol; `context` is called once per method call, with the resource's URN when known. */
export function dynamicProvider<Inputs, Outputs>(
  lifecycle: ResourceLifecycle<Inputs, Outputs>,
  context: (urn?: string) => LifecycleContext,
): KindProvider<Inputs, Outputs> {
  // The context of a call whose inputs may carry the resource's identity.
  const contextOf = (news: unknown): LifecycleContext => {
    const urn = identityOf(news);
    return urn === undefined ? context() : { ...context(urn), urn };
  };
  return {
    async check(olds, news) {
      const { inputs, failures } = await lifecycle.check(
        withoutProviderKey<Record<string, unknown>>(olds),
        withoutProviderKey<Record<string, unknown>>(news),
        contextOf(news),
      );
      return { inputs: withIdentityOf(inputs, news), failures: failures.map(({ property, reason }) => ({ property, reason })) };
    },

    async diff(id, olds, news) {
      const result = await lifecycle.diff(id, withoutProviderKey<Outputs>(olds), withoutProviderKey<Inputs>(news), contextOf(news));
      return { changes: result.changes, replaces: [...result.replaces], deleteBeforeReplace: result.deleteBeforeReplace };
    },

    async create(inputs) {
      const { id, outputs } = await lifecycle.create(withoutProviderKey<Inputs>(inputs), contextOf(inputs));
      return { id, outs: withIdentityOf(outputs, inputs) };
    },

    async read(id, props) {
      const result = await lifecycle.read(id, props === undefined ? undefined : withoutProviderKey<Outputs>(props), context());
      // The engine's signal that the object no longer exists: it is then removed from the state.
      if (result === undefined) return { id: "" };
      // The plugin types read's `inputs` as `Outputs`; what the lifecycle returns there are the declared inputs.
      return { id: result.id, props: withIdentityOf(result.outputs, props), inputs: result.inputs as unknown as Outputs };
    },

    async update(id, olds, news) {
      const state = withoutProviderKey<Outputs>(olds);
      const { outputs } = await lifecycle.update(id, state, withoutProviderKey<Inputs>(news), contextOf(news));
      return { outs: withIdentityOf(outputs, news) };
    },

    async delete(id, props) {
      await lifecycle.delete(id, withoutProviderKey<Outputs>(props), contextOf(props));
    },
  };
}
