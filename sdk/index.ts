/**
 * pulumi-adplatform: what a Pulumi program imports.
 *
 * Resources (dynamic resources over the API's POST and PATCH operations) and data sources (`getX` /
 * `getXOutput` over its GET operations), and the `Account` either may name, in one flat namespace
 * (docs/ARCHITECTURE.md, "Code conventions").
 */
export { Account, type AccountArgs } from "./account";
export * from "./resources";
export * from "./dataSources";
