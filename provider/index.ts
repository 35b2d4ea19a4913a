/**
 * `pulumi-adplatform/provider`: the entry the serialized `__provider` shim of every resource
 * requires by package name inside the dynamic-provider plugin
 * (docs/ARCHITECTURE.md, "The serialized provider is a thin shim"). Keep these two functions' names
 * and signatures stable: stacks' state calls them.
 *
 * - `configure(request)`: stores the stack config's `adplatform:baseUrl` / `adplatform:token`.
 * - `resourceProvider(kind)`: the CRUD provider of `BidStrategy`, `CampaignGroup`, `BidModifier` or
 *   `AbTestVariation`.
 */
export * from "./resources";
