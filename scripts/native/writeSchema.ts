/**
 * `npm run native:schema`: writes the native face's schema (`./buildSchema.ts`) to
 * `provider/faces/native/schema.json`, the file the plugin serves and the SDKs are generated from.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildSchema } from "./buildSchema";
import { SCHEMA_FILE, packageVersion } from "./schemaFile";

const schema = buildSchema(packageVersion());
fs.writeFileSync(SCHEMA_FILE, `${JSON.stringify(schema, null, 2)}\n`);
process.stdout.write(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}\n`);
