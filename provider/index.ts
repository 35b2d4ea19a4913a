/**
 * `pulumi-adplatform/provider`: the entry the serialized `__provider` shim of every resource
 * requires by package name inside the dynamic-provider plugin (sdk/resources/providerShim.ts). Keep
 * these two functions' names and signatures stable:
 * stacks' state calls them.
 *
 * - `configure(request)`: stores the stack config's `adplatform:baseUrl` / `adplatform:token`.
 * - `resourceProvider(kind)`: the dynamic provider of `BidStrategy`, `CampaignGroup`, `BidModifier`
 *   or `AbTestVariation` (the kind's face-neutral lifecycle, adapted by `faces/dynamic`).
 */
export * from "./resources";
export { configure, resourceProvider, type KindProvider } from "./faces/dynamic";
