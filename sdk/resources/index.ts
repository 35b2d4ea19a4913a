/** The four dynamic resources (flat, STYLE.md 6). */
export * from "./bidStrategy";
export * from "./campaignGroup";
export * from "./bidModifier";
export * from "./abTestVariation";
