/**
 * The data-source read engine: the table of the 16 reads (`definitions.ts`), the one engine that
 * carries them out (`engine.ts`) with in-flight coalescing and a per-run cache (`readCache.ts`), and
 * the errors they throw. The SDK's `getX` / `getXOutput` functions are thin wrappers over this.
 */
export * from "./arguments";
export * from "./dataSource";
export * from "./definitions";
export * from "./engine";
export * from "./errors";
export * from "./readCache";
export * from "./settingRemedy";
