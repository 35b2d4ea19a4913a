/** Every wire schema of the catalog, one module per resource family. */
export * from "./common";
export * from "./bidModifier";
export * from "./campaignGroup";
export * from "./bidStrategy";
export * from "./abTestVariation";
export * from "./container";
export * from "./integration";
export * from "./creative";
export * from "./pushTask";
export * from "./zone";
export * from "./profileProperty";
export * from "./searchAlgorithm";
export * from "./macro";
export * from "./externalDemand";
export * from "./messagingProvider";
export * from "./country";
export * from "./segment";
