/**
 * `npm run generate`: writes every derived, checked-in file (./generators.ts) and deletes the ones
 * no definition produces any more. `--check` only lists what is out of date and exits 1 if any is.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { GENERATORS } from "./generators";
import { REPO_ROOT, changes } from "./staleFiles";

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const { write, remove } = await changes(GENERATORS);
  for (const file of write) {
    if (check) {
      process.stdout.write(`stale: ${file.path}\n`);
      continue;
    }
    fs.mkdirSync(path.dirname(path.join(REPO_ROOT, file.path)), { recursive: true });
    fs.writeFileSync(path.join(REPO_ROOT, file.path), file.content);
    process.stdout.write(`wrote ${file.path}\n`);
  }
  for (const file of remove) {
    if (check) {
      process.stdout.write(`no longer generated: ${file}\n`);
      continue;
    }
    fs.rmSync(path.join(REPO_ROOT, file));
    process.stdout.write(`removed ${file}\n`);
  }
  if (check && write.length + remove.length > 0) {
    process.stdout.write("run `npm run generate` to bring them up to date\n");
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`generate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
