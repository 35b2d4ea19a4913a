/**
 * Data sources: one `getX` / `getXOutput` pair per GET operation of the spec (operations 5-20),
 * plain reads in the program process (invokes are not supported for dynamic providers), sharing one
 * rate-limited client per account and one read per distinct request per run. The `get*.ts` files
 * and `shared.ts` are generated (`npm run generate`, scripts/generate/dataSourceSdk.ts) from the
 * rows of provider/dataSources/definitions.ts and the catalog's record schemas; the engine they
 * call (`invoke.ts`, `accountArgument.ts`, `programErrors.ts`) is written here.
 */
export * from "./getContainerModal";
export * from "./getContainerPrompts";
export * from "./getIntegration";
export * from "./getCreative";
export * from "./getPushTask";
export * from "./getZonePlacement";
export * from "./getProfileProperty";
export * from "./getSearchAlgorithm";
export * from "./getZone";
export * from "./getMacros";
export * from "./getExternalDemands";
export * from "./getMessagingProvider";
export * from "./getCountries";
export * from "./getSegments";
export * from "./getCampaignGroup";
export * from "./getContainerGroup";
export * from "./shared";
export type { DataSourceOutputOptions } from "./invoke";
export { configureDataSources, type DataSourceSettings } from "../config";
export {
  DataSourceArgumentError,
  DataSourceCredentialsError,
  DataSourceError,
  DataSourceNotDisplayZoneError,
  DataSourceNotFoundError,
  DataSourceRequestError,
  DataSourceResponseError,
  type DataSourceErrorCode,
} from "../../provider/dataSources/errors";
export { clearReadCache as clearDataSourceCache } from "../../provider/dataSources/engine";
