/**
 * Every generator of checked-in files. `npm run generate` runs them all; the staleness test reads
 * this list, so a generator added here is checked without further wiring.
 */
import { buildSchema } from "../native/buildSchema";
import { SCHEMA_PATH, packageVersion } from "../native/schemaFile";
import { dataSourceSdk } from "./dataSourceSdk";
import type { Generator } from "./generatedFile";
import { apiReference } from "./reference";
import { resourceSdk } from "./resourceSdk";

/** The schema of today's definitions, derived once per run: the schema file and the reference read it. */
let derived: Record<string, unknown> | undefined;
const derivedSchema = () => (derived ??= buildSchema(packageVersion()));

const nativeSchema: Generator = {
  name: "native schema",
  async files() {
    return [{ path: SCHEMA_PATH, content: `${JSON.stringify(derivedSchema(), null, 2)}\n` }];
  },
};

export const GENERATORS: readonly Generator[] = [nativeSchema, resourceSdk, dataSourceSdk, apiReference(derivedSchema)];
