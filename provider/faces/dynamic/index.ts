/** The dynamic face: what the serialized `__provider` shim requires from `pulumi-adplatform/provider`. */
export { configure } from "./configure";
export { resourceProvider } from "./resourceProvider";
export type { KindProvider } from "./adapter";
