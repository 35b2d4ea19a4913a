/**
 * The package schema the plugin serves (`GetSchema`, `pulumi package get-schema`). It is generated,
 * not written: `npm run generate` derives it from the resource definitions, the data-source
 * table and the catalog, with the SDK's JSDoc as descriptions (scripts/native/buildSchema.ts), and
 * tests/scripts/native/buildSchema.test.ts fails when this file and the derivation disagree.
 */
import schema from "./schema.json";

/** The schema as the JSON text `GetSchema` returns. */
export function schemaText(): string {
  return JSON.stringify(schema);
}
