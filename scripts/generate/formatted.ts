/**
 * A generated TypeScript file as `npm run lint` wants it: formatted by prettier with the repository's
 * settings. Prettier runs in a child process, since its API loads itself with a dynamic `import()`,
 * which jest (the staleness test runs every generator) refuses.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import type { GeneratedFile } from "./generatedFile";
import { REPO_ROOT } from "./staleFiles";

const PRETTIER = path.join(REPO_ROOT, "node_modules", "prettier", "bin", "prettier.cjs");

/** `text` formatted as prettier formats `file` (repository-relative). */
export async function formatted(file: string, text: string): Promise<GeneratedFile> {
  const run = spawnSync(process.execPath, [PRETTIER, "--stdin-filepath", file], { cwd: REPO_ROOT, input: text, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`prettier could not format ${file}: ${(run.stderr || run.error?.message || "").trim()}`);
  return { path: file, content: run.stdout };
}
