/**
 * What the CLI makes of the native face's package: `pulumi package get-schema` of the plugin prints
 * the schema file, and `pulumi package gen-sdk` of that schema gives exactly the SDKs kept in sdks/
 * (so a schema change without `npm run native:sdks` fails here).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const SCHEMA_FILE = path.join(REPO_ROOT, "provider", "faces", "native", "schema.json");

/** Every file below `dir` (relative paths), leaving out what a build or install adds. */
function filesBelow(dir: string, under = ""): string[] {
  return fs.readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(under, entry.name);
    if (["bin", "node_modules", "__pycache__", "build", "dist"].includes(entry.name) || entry.name.endsWith(".egg-info")) return [];
    return entry.isDirectory() ? filesBelow(dir, relative) : [relative];
  });
}

let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-sdks-"));
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

it("pulumi package get-schema prints the schema the plugin serves", () => {
  const plugin = path.join(REPO_ROOT, "bin", "provider", "faces", "native", "main.js");
  const printed = execFileSync("pulumi", ["package", "get-schema", plugin], { cwd: tmp, encoding: "utf8" });
  expect(JSON.parse(printed)).toEqual(JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")));
});

it("the SDKs in sdks/ are gen-sdk's output for the current schema", () => {
  execFileSync("bash", [path.join(REPO_ROOT, "scripts", "native", "generate-sdk-sources"), tmp], { stdio: "pipe" });
  const kept = path.join(REPO_ROOT, "sdks");
  const keptFiles = filesBelow(kept).sort();
  expect(filesBelow(tmp).sort()).toEqual(keptFiles);
  const differing = keptFiles.filter(
    (file) => fs.readFileSync(path.join(kept, file), "utf8") !== fs.readFileSync(path.join(tmp, file), "utf8"),
  );
  expect(differing).toEqual([]);
});
