/**
 * The native face: the four resources' lifecycles and the 16 data sources as one `@pulumi/pulumi/provider`
 * `Provider` (served by `./serve.ts`). A `Read` without state is an import (`./importSupport.ts`); a gone
 * object's `Read` answers an empty id, which makes the engine drop it. Each call's context has the URN
 * (which a record of a create in progress is keyed by) and whether the engine's state holds the resource,
 * which the last `Check` of the URN showed by sending old inputs (provider/resources/journal).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Settings } from "../../configuration";
import { AdPlatformError } from "../../errors";
import type { LifecycleContext, ResourceLifecycle, ResourceKind } from "../../resources";
import { epochClock } from "../../infrastructure";
import { CreateSession, resourceLifecycle } from "../../resources";
import { invokeDataSource } from "./dataSourceInvoke";
import { engineInfo, engineStatus, engineWarn } from "../engineLog";
import { propertiesFromEngine, toEngine } from "./engineValues";
import { importRefusal } from "./importSupport";
import { dataSourceOfToken, kindOfToken, typeOfUrn } from "./tokens";

const unsupported = (message: string) => new AdPlatformError("ADP_ERR_UNSUPPORTED", message);

/** `ADP_ERR_UNSUPPORTED` for a type this package does not have. */
function kindOfUrn(urn: string): ResourceKind {
  const type = typeOfUrn(urn);
  const kind = kindOfToken(type);
  if (kind === undefined) throw unsupported(`pulumi-adplatform has no resource type ${JSON.stringify(type)}`);
  return kind;
}

/** Each kind has its own types, which its check produced. */
type PropertyMap = Record<string, unknown>;

function lifecycleOf(urn: string): ResourceLifecycle<PropertyMap, PropertyMap> {
  return resourceLifecycle(kindOfUrn(urn)) as ResourceLifecycle<PropertyMap, PropertyMap>;
}

/** `version` is the package's; `settings` gives the configuration in force at each call (it may arrive after the first). */
export function nativeProvider(version: string, schema: string, settings: () => Settings): pulumi.provider.Provider {
  // The engine's `Check` shows whether its state holds a resource.
  const createSession = new CreateSession(epochClock, true);
  const contextFor = (urn: string): LifecycleContext => ({
    createSession,
    warn: (message) => engineWarn(message, urn),
    info: (message) => engineInfo(message, urn),
    status: (message) => engineStatus(message, urn),
    settings: settings(),
    urn,
  });
  return {
    version,
    schema,

    async check(urn, olds, news) {
      const { inputs, failures } = await lifecycleOf(urn).check(propertiesFromEngine(olds), propertiesFromEngine(news), contextFor(urn));
      return { inputs: toEngine(inputs), failures: failures.map(({ property, reason }) => ({ property, reason })) };
    },

    async diff(id, urn, olds, news) {
      const result = await lifecycleOf(urn).diff(id, propertiesFromEngine(olds), propertiesFromEngine(news), contextFor(urn));
      return { changes: result.changes, replaces: [...result.replaces], deleteBeforeReplace: result.deleteBeforeReplace };
    },

    async create(urn, inputs) {
      const { id, outputs } = await lifecycleOf(urn).create(propertiesFromEngine(inputs), contextFor(urn));
      return { id, outs: toEngine(outputs) };
    },

    async read(id, urn, props) {
      const kind = kindOfUrn(urn);
      const state = propertiesFromEngine(props);
      // No state at all: the engine is importing `id` (see ./protocolFixes.ts).
      const importing = Object.keys(state).length === 0;
      if (importing) {
        const refusal = importRefusal(kind, id);
        if (refusal !== undefined) throw unsupported(refusal);
      }
      const result = await lifecycleOf(urn).read(id, importing ? undefined : state, contextFor(urn));
      if (result === undefined) {
        if (importing) throw unsupported(`${kind} ${id}: cannot import: the platform has no such object`);
        // The engine's signal that the object no longer exists: it is then removed from the state.
        return { id: "" };
      }
      return { id: result.id, props: toEngine(result.outputs), inputs: toEngine(result.inputs) };
    },

    async update(id, urn, olds, news) {
      const { outputs } = await lifecycleOf(urn).update(id, propertiesFromEngine(olds), propertiesFromEngine(news), contextFor(urn));
      return { outs: toEngine(outputs) };
    },

    async delete(id, urn, props) {
      await lifecycleOf(urn).delete(id, propertiesFromEngine(props), contextFor(urn));
    },

    async invoke(token, args) {
      const name = dataSourceOfToken(token);
      if (name === undefined) throw unsupported(`pulumi-adplatform has no function ${JSON.stringify(token)}`);
      return invokeDataSource(name, args, settings());
    },
  };
}
