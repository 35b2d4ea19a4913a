/** Compares the generators' output with the files on disk: what would `npm run generate` change. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { GeneratedFile, Generator } from "./generatedFile";

export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** What `npm run generate` would do to bring the checked-in files up to date. */
export interface Changes {
  readonly write: readonly GeneratedFile[];
  /** Files in an owned directory that no generator produces any more. */
  readonly remove: readonly string[];
}

function listFiles(directory: string): string[] {
  const absolute = path.join(REPO_ROOT, directory);
  if (!fs.existsSync(absolute)) return [];
  return fs
    .readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)));
}

function readOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
  } catch {
    return undefined;
  }
}

export async function changes(generators: readonly Generator[]): Promise<Changes> {
  const write: GeneratedFile[] = [];
  const produced = new Set<string>();
  const owned: string[] = [];
  for (const generator of generators) {
    for (const file of await generator.files()) {
      produced.add(file.path);
      if (readOrUndefined(file.path) !== file.content) write.push(file);
    }
    owned.push(...(generator.ownedDirectories ?? []));
  }
  const remove = owned.flatMap(listFiles).filter((file) => !produced.has(file));
  return { write, remove };
}
