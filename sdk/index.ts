/**
 * pulumi-adplatform: what a Pulumi program imports.
 *
 * Resources (dynamic resources over the API's POST and PATCH operations) and data sources (`getX` /
 * `getXOutput` over its GET operations), and the `Account` either may name, in one flat namespace.
 */
export { Account, type AccountArgs } from "./account";
export * from "./resources";
export * from "./dataSources";
export { adoptImportFile, type AdoptedResources } from "./adoptImportFile";
export { AdPlatformError, type ErrorCode } from "../provider/errors";

import { warnPlainCredentials } from "./config";

// Once per program, before any resource or data source: the stack config is known from the start.
warnPlainCredentials();
