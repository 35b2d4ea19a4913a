/**
 * What `npm run generate` would change, in a checkout made up for the test: a generated file whose
 * content differs is rewritten; a file nothing produces any more is deleted when it lies in a
 * directory the generator owns, or when it is marked generated in one it shares with hand-written
 * files; hand-written files are never touched.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GENERATED_MARK, type Generator } from "../../../scripts/generate/generatedFile";
import { changes } from "../../../scripts/generate/staleFiles";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "stale-files-"));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function plant(files: Readonly<Record<string, string>>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), content);
  }
}

const GET_ONE = `${GENERATED_MARK} from a definition.\nexport const one = 1;\n`;

const generator: Generator = {
  name: "test",
  ownedDirectories: ["reference"],
  sharedDirectories: ["sdk"],
  async files() {
    return [
      { path: "sdk/getOne.ts", content: GET_ONE },
      { path: "reference/one.md", content: "# one\n" },
    ];
  },
};

it("finds nothing to do when every produced file is there as produced and nothing else is marked generated", async () => {
  plant({ "sdk/getOne.ts": GET_ONE, "sdk/invoke.ts": "/** Hand-written. */\n", "reference/one.md": "# one\n" });
  expect(await changes([generator], root)).toEqual({ write: [], remove: [] });
});

it("rewrites a produced file that differs, and writes one that is missing", async () => {
  plant({ "sdk/getOne.ts": `${GENERATED_MARK} from an older definition.\n` });
  const { write, remove } = await changes([generator], root);
  expect(write.map((file) => file.path).sort()).toEqual(["reference/one.md", "sdk/getOne.ts"]);
  expect(remove).toEqual([]);
});

it("deletes a file no generator produces: any in an owned directory, only marked ones in a shared directory", async () => {
  plant({
    "sdk/getOne.ts": GET_ONE,
    "reference/one.md": "# one\n",
    "sdk/getGone.ts": `${GENERATED_MARK} from a data source since removed.\n`,
    "sdk/invoke.ts": "/** Hand-written. */\n",
    "sdk/notes.ts": `// Mentions ${GENERATED_MARK} further down, not at its start.\n`,
    "reference/gone.md": "# gone\n",
  });
  const { write, remove } = await changes([generator], root);
  expect(write).toEqual([]);
  expect([...remove].sort()).toEqual(["reference/gone.md", "sdk/getGone.ts"]);
});
