/**
 * The dynamic face: what the serialized `__provider` shim of every resource requires from
 * `pulumi-adplatform/provider` inside the dynamic-provider plugin.
 */
export { configure } from "./configure";
export { resourceProvider } from "./resourceProvider";
export type { KindProvider } from "./adapter";
