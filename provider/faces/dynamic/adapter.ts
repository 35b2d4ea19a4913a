/**
 * The dynamic face: a kind's `ResourceLifecycle` as the `pulumi.dynamic.ResourceProvider` the serialized
 * shim delegates to (sdk/resources/providerShim.ts). The plugin's `__provider` key is taken out of every
 * map; the hidden identity input (`./identityInput`) becomes the context's `urn` and is kept in `check`'s
 * answer and in the outputs, since the plugin hands `delete` only those (resources/lifecycle/leftBehind.ts).
 * A gone object's `read` answers an empty id. Each call gets a fresh context, so late configuration applies.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { LifecycleContext, ResourceLifecycle } from "../../resources";
import { IDENTITY_INPUT, identityOf, withIdentityOf } from "./identityInput";

/** The key of the serialized provider text in every property map. */
export const PROVIDER_KEY = "__provider";

/** Every method but `configure` (once for all kinds), all required: the serialized shim forwards every one. */
export type KindProvider<Inputs, Outputs> = Required<Omit<pulumi.dynamic.ResourceProvider<Inputs, Outputs>, "configure">>;

/** `props` without `__provider` and our hidden identity (an absent map reads as empty). */
export function withoutProviderKey<T = Record<string, unknown>>(props: unknown): T {
  const { [PROVIDER_KEY]: _provider, [IDENTITY_INPUT]: _identity, ...rest } = (props ?? {}) as Record<string, unknown>;
  return rest as T;
}

/** `context` is called once per method call, with the resource's URN when known. */
export function dynamicProvider<Inputs, Outputs>(
  lifecycle: ResourceLifecycle<Inputs, Outputs>,
  context: (urn?: string) => LifecycleContext,
): KindProvider<Inputs, Outputs> {
  const contextOf = (news: unknown): LifecycleContext => {
    const urn = identityOf(news);
    return urn === undefined ? context() : { ...context(urn), urn };
  };
  return {
    async check(olds, news) {
      const { inputs, failures } = await lifecycle.check(withoutProviderKey(olds), withoutProviderKey(news), contextOf(news));
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
      const { outputs } = await lifecycle.update(id, withoutProviderKey<Outputs>(olds), withoutProviderKey<Inputs>(news), contextOf(news));
      return { outs: withIdentityOf(outputs, news) };
    },

    async delete(id, props) {
      await lifecycle.delete(id, withoutProviderKey<Outputs>(props), contextOf(props));
    },
  };
}
