/**
 * `pulumi-adplatform/provider`: what the serialized `__provider` shim of every resource requires inside
 * the dynamic-provider plugin (sdk/resources/providerShim.ts). Stacks' state calls `configure(request)`
 * and `resourceProvider(kind)` by name: keep both names and signatures stable.
 */
export * from "./resources";
export { configure, resourceProvider, type KindProvider } from "./faces/dynamic";
