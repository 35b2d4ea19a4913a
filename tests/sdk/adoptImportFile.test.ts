/**
 * adoptImportFile (sdk/adoptImportFile.ts) refuses, before declaring anything, a file that is no
 * import file, a type of another package and a group without items (what it declares and adopts
 * is proven through the real CLI in tests/e2e/importFile.test.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { adoptImportFile } from "../../sdk/adoptImportFile";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "adopt-file-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A file holding `content` as JSON (or as it is, for a string). */
function fileOf(name: string, content: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

it("refuses a file that is no import file, naming the file and the entry", () => {
  expect(() => adoptImportFile(fileOf("a.json", "{"))).toThrow(/a\.json: not JSON/);
  expect(() => adoptImportFile(fileOf("b.json", { items: [] }))).toThrow(
    'b.json: no "resources" list: write it with adplatform-import-file',
  );
  expect(() => adoptImportFile(fileOf("c.json", { resources: [{ type: "adplatform:index:BidStrategy", name: "s", id: "601" }] }))).toThrow(
    'c.json: resources[0]: needs "type", "name", "id" and "inputs"',
  );
});

it("refuses a type of another package and a group without items, which the dynamic group needs to adopt", () => {
  const other = { resources: [{ type: "aws:s3/bucket:Bucket", name: "b", id: "x", inputs: {} }] };
  expect(() => adoptImportFile(fileOf("d.json", other))).toThrow('b: type "aws:s3/bucket:Bucket" is no resource of pulumi-adplatform');
  const group = {
    resources: [
      { type: "adplatform:index:CampaignGroup", name: "group-702", id: "702", inputs: { name: "Retargeting", color: "#3366cc" } },
    ],
  };
  expect(() => adoptImportFile(fileOf("e.json", group))).toThrow("group-702: group 702 has no items");
});
