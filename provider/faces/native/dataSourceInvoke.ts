/**
 * The 16 data sources as the native face's invokes (`adplatform:index:getZone`): the read engine of
 * `provider/dataSources/` with the provider's settings, answering in SDK (camelCase) names.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Settings } from "../../configuration";
import { DATA_SOURCES, readList, readOne, type ConnectionSettings, DataSourceArgumentError } from "../../dataSources";
import { propertiesFromEngine, toEngine } from "./engineValues";
import type { DataSourceName } from "./tokens";

/** With where each setting came from, so a failure says where to fix it. */
function connectionSettings({ baseUrl, token, limitsUrl, origins }: Settings): ConnectionSettings {
  return { baseUrl, token, limitsUrl, origins: { baseUrl: origins.baseUrl, token: origins.token } };
}

export async function invokeDataSource(name: DataSourceName, args: unknown, settings: Settings): Promise<pulumi.provider.InvokeResult> {
  const source = DATA_SOURCES[name];
  const plainArgs = propertiesFromEngine(args);
  try {
    const result =
      source.shape === "one"
        ? await readOne<unknown>(source, plainArgs, connectionSettings(settings))
        : await readList<unknown>(source, plainArgs, connectionSettings(settings));
    return { outputs: toEngine(result) };
  } catch (error) {
    if (error instanceof DataSourceArgumentError) return { failures: [{ property: "", reason: error.message }] };
    throw error;
  }
}
