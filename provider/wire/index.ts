/** The API's JSON on the wire: parsing it, its casing against the SDK's, answers checked against the catalog. */
export { type Camelize, roundedIntegersNotice, snakeToCamel, toSdk, toWire } from "./casing";
export { answeredAsParsed } from "./checkedJson";
export { parseJson, plainJson } from "./json";
