/** Compares the generators' output with the files on disk: what would `npm run generate` change. */
import * as fs from "node:fs";
import * as path from "node:path";
import { GENERATED_MARK, type GeneratedFile, type Generator } from "./generatedFile";

export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** What `npm run generate` would do to bring the checked-in files up to date. */
export interface Changes {
  readonly write: readonly GeneratedFile[];
  /** Files in an owned directory that no generator produces any more. */
  readonly remove: readonly string[];
}

function listFiles(root: string, directory: string): string[] {
  const absolute = path.join(root, directory);
  if (!fs.existsSync(absolute)) return [];
  return fs
    .readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

function readOrUndefined(root: string, file: string): string | undefined {
  try {
    return fs.readFileSync(path.join(root, file), "utf8");
  } catch {
    return undefined;
  }
}

/** What `generators` would change in the checkout at `root` (this repository unless told). */
export async function changes(generators: readonly Generator[], root: string = REPO_ROOT): Promise<Changes> {
  const write: GeneratedFile[] = [];
  const produced = new Set<string>();
  const owned: string[] = [];
  const shared: string[] = [];
  for (const generator of generators) {
    for (const file of await generator.files()) {
      produced.add(file.path);
      if (readOrUndefined(root, file.path) !== file.content) write.push(file);
    }
    owned.push(...(generator.ownedDirectories ?? []));
    shared.push(...(generator.sharedDirectories ?? []));
  }
  const generated = (file: string) => readOrUndefined(root, file)?.startsWith(GENERATED_MARK) === true;
  const remove = [
    ...owned.flatMap((directory) => listFiles(root, directory)),
    ...shared.flatMap((directory) => listFiles(root, directory)).filter(generated),
  ].filter((file) => !produced.has(file));
  return { write, remove: [...new Set(remove)] };
}
