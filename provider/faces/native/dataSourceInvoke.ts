/**
 * The 16 data sources as the native face's invokes (`adplatform:index:getZone`, ...): the same
 * table and read engine as the dynamic SDK's `getX` functions (`provider/dataSources/`), with the
 * provider's settings. A list read returns `{ total, items }`, a single read the record,
 * both in SDK (camelCase) names.
 */
import type { Settings } from "../../configuration";
import { DATA_SOURCES, readList, readOne, type ConnectionSettings, DataSourceArgumentError } from "../../dataSources";
import { propertiesFromEngine, toEngine } from "./engineValues";
import type { DataSourceName } from "./tokens";

/** The connection a read uses, with where each setting came from (a failure then says where to fix it). */
function connectionSettings({ baseUrl, token, limitsUrl, origins }: Settings): ConnectionSettings {
  return { baseUrl, token, limitsUrl, origins: { baseUrl: origins.baseUrl, token: origins.token } };
}

/** What an invoke answers: the result, or the arguments' failures. */
export interface InvokeAnswer {
  readonly outputs?: unknown;
  readonly failures?: { property: string; reason: string }[];
}

/** Reads data source `name` with the invoke's `args` and the provider's `settings`. */
export async function invokeDataSource(name: DataSourceName, args: unknown, settings: Settings): Promise<InvokeAnswer> {
  const source = DATA_SOURCES[name];
  const plainArgs = propertiesFromEngine(args);
  try {
    const result =
      source.shape === "one"
        ? await readOne<unknown>(source, plainArgs, connectionSettings(settings))
        : await readList<unknown>(source, plainArgs, connectionSettings(settings));
    return { outputs: toEngine(result) };
  } catch (error) {
    if (error instanceof DataSourceArgumentError) {
      return { failures: [{ property: "", reason: error.message }] };
    }
    throw error;
  }
}
