/**
 * The 16 data sources as the native face's invokes (`adplatform:index:getZone`, ...): the same
 * table and read engine as the dynamic SDK's `getX` functions (`provider/dataSources/`), with the
 * provider's configured connection. A list read returns `{ total, items }`, a single read the record,
 * both in SDK (camelCase) names.
 */
import { ENV_BASE_URL, ENV_TOKEN } from "../../client";
import { DATA_SOURCES } from "../../dataSources/definitions";
import { readList, readOne, type ConnectionSettings } from "../../dataSources/engine";
import { DataSourceArgumentError } from "../../dataSources/errors";
import type { SettingOrigin } from "../../dataSources/remedy";
import { configuredConnection } from "./configuration";
import { propertiesFromEngine, toEngine } from "./engineValues";
import type { DataSourceName } from "./tokens";

/** The connection a read uses, with where each setting came from (a failure then says where to fix it). */
function connectionSettings(): ConnectionSettings {
  const { baseUrl, token } = configuredConnection();
  const origin = (configured: string | undefined, env: string): SettingOrigin | undefined =>
    configured !== undefined ? "stackConfig" : process.env[env] ? "environment" : undefined;
  const baseUrlOrigin = origin(baseUrl, ENV_BASE_URL);
  const tokenOrigin = origin(token, ENV_TOKEN);
  return {
    baseUrl,
    token,
    origins: { ...(baseUrlOrigin ? { baseUrl: baseUrlOrigin } : {}), ...(tokenOrigin ? { token: tokenOrigin } : {}) },
  };
}

/** What an invoke answers: the result, or the arguments' failures. */
export interface InvokeAnswer {
  readonly outputs?: unknown;
  readonly failures?: { property: string; reason: string }[];
}

/** Reads data source `name` with the invoke's `args`. */
export async function invokeDataSource(name: DataSourceName, args: unknown): Promise<InvokeAnswer> {
  const source = DATA_SOURCES[name];
  const plainArgs = propertiesFromEngine(args);
  try {
    const result =
      source.shape === "one"
        ? await readOne<unknown>(source, plainArgs, connectionSettings)
        : await readList<unknown>(source, plainArgs, connectionSettings);
    return { outputs: toEngine(result) };
  } catch (error) {
    if (error instanceof DataSourceArgumentError) {
      return { failures: [{ property: "", reason: error.message }] };
    }
    throw error;
  }
}
