/** Where the native schema is kept, and the version it carries (the package's). */
import * as fs from "node:fs";
import * as path from "node:path";

const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** The schema the plugin serves (imported by `provider/faces/native/schema.ts`), repository-relative. */
export const SCHEMA_PATH = "provider/faces/native/schema.json";
/** The same, absolute. */
export const SCHEMA_FILE = path.join(REPO_ROOT, SCHEMA_PATH);

/** The package's version, from package.json. */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
}
