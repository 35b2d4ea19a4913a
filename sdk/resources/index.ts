/** The four dynamic resources, exported flat: a program imports every class from the package root. */
export * from "./bidStrategy";
export * from "./campaignGroup";
export * from "./bidModifier";
export * from "./abTestVariation";
