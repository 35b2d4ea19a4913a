/** The operation catalog: types, rate classes, wire schemas and the 20 operations. */
export * from "./types";
export * from "./rateClasses";
export * from "./schemas";
export * from "./defineOperation";
export * from "./operations";
