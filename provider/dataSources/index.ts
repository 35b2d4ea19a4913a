/** The table of the 16 reads, the one engine behind them and their errors; the SDK's `getX` wrap this. */
export * from "./arguments";
export * from "./dataSource";
export * from "./definitions";
export * from "./engine";
export * from "./errors";
export * from "./readCache";
export * from "./settingRemedy";
