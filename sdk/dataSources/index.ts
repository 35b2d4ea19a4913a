/**
 * Data sources: one `getX` / `getXOutput` pair per GET operation of the spec (operations 5-20),
 * plain reads in the program process (invokes are not supported for dynamic providers), sharing one
 * rate-limited client per account and one read per distinct request per run. The `get*.ts` files,
 * `shared.ts` and `functions.ts` (which exports them) are generated (`npm run generate`,
 * scripts/generate/dataSourceSdk.ts) from the rows of provider/dataSources/definitions.ts and the
 * catalog's record schemas; the engine they call (`invoke.ts`, `accountArgument.ts`,
 * `programErrors.ts`) is written here.
 */
export * from "./functions";
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
