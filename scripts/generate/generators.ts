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

const nativeSchema: Generator = {
  name: "native schema",
  async files() {
    return [{ path: SCHEMA_PATH, content: `${JSON.stringify(buildSchema(packageVersion()), null, 2)}\n` }];
  },
};

export const GENERATORS: readonly Generator[] = [nativeSchema, resourceSdk, dataSourceSdk, apiReference];
