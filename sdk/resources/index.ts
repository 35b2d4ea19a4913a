/** The four dynamic resources, in one flat namespace (docs/ARCHITECTURE.md, "Code conventions"). */
export * from "./bidStrategy";
export * from "./campaignGroup";
export * from "./bidModifier";
export * from "./abTestVariation";
