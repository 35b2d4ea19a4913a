#!/usr/bin/env node
/**
 * `adplatform-import-file` (package.json `bin`): writes the import file `pulumi import --file`
 * takes, from CSVs of the objects' fields or lists of ids (./build.ts). The account comes from the
 * environment (`ADPLATFORM_BASE_URL`, `ADPLATFORM_TOKEN`, and the limiter's settings), never from a
 * flag, which `ps` would show. Exits 1 with every refused row and writes nothing when any is.
 */
import * as fs from "node:fs";
import { resolveSettings } from "../../configuration";
import { isResourceKind, RESOURCE_KINDS, type ResourceKind } from "../../resources";
import { buildImportFile, lifecycleReader, rowsOfIds, writeImportFile, type ImportSource } from "./build";
import { importRefused, parseCsv } from "./csv";
import { unknownColumns } from "./entries";
import { IMPORTABLE_KINDS } from "../native/importSupport";

const USAGE = `Usage: adplatform-import-file (--kind <Kind> (--csv <file> | --ids <id,...>))... --out <file>

Writes a Pulumi import file for \`pulumi import --file <file>\` (Pulumi CLI 3.254 or later) whose
entries carry each object's inputs and outputs, so the import reads nothing the API cannot read and
sends no write. Kinds: ${RESOURCE_KINDS.join(", ")}.

  --kind <Kind>   the kind of the rows of the --csv and --ids options that follow it
  --csv <file>    a CSV of the objects' fields, one object per line: a header line of field names
                  (SDK names such as maxValue, or wire names such as max_value) and "id" for the
                  object's id (a variation's variationId; abTestId is its own column). Lists and
                  objects are JSON (["5001","5002"]); an empty cell is no value.
  --ids <id,...>  ids of campaign groups, whose fields are read from the API (other kinds cannot be
                  read: give their fields in a CSV)
  --out <file>    the import file to write (a new file, mode 0600; an existing one is not replaced)

Campaign groups are read (GET /v2/adex/groups/{id}); a row gives what the API does not return
(items) and may repeat name and color, which must then be the platform's. Every row is checked by
the schema the provider's check uses; a refused row is named with its line and field, and nothing
is written. The account: ADPLATFORM_BASE_URL and ADPLATFORM_TOKEN in the environment.
Guide: docs/importing-and-adopting.md in the package.`;

/** The sources and the output path of `args`, or a usage error. */
export function parseImportFileArgs(args: readonly string[], readText: (path: string) => string): { sources: ImportSource[]; out: string } {
  const sources: ImportSource[] = [];
  let kind: ResourceKind | undefined;
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const value = args[i + 1];
    if (!["--kind", "--csv", "--ids", "--out"].includes(flag)) throw importRefused(`unknown argument ${JSON.stringify(flag)}`);
    if (value === undefined) throw importRefused(`${flag} needs a value`);
    i += 1;
    if (flag === "--out") out = value;
    else if (flag === "--kind") {
      if (!isResourceKind(value)) throw importRefused(`--kind ${JSON.stringify(value)}: one of ${RESOURCE_KINDS.join(", ")}`);
      kind = value;
    } else {
      if (kind === undefined) throw importRefused(`${flag} ${value}: give --kind first`);
      if (flag === "--ids") {
        if (!IMPORTABLE_KINDS.has(kind))
          throw importRefused(
            `--ids ${value}: the API cannot read a ${kind}, so an id alone says nothing of its fields: give them in a --csv`,
          );
        const ids = value.split(",").flatMap((id) => id.trim() || []);
        sources.push({ kind, origin: "--ids", rows: rowsOfIds(ids) });
      } else {
        const table = parseCsv(readText(value));
        const unknown = unknownColumns(kind, table.columns);
        if (unknown.length > 0)
          throw importRefused(`${value}: no field of ${kind} is named ${unknown.map((c) => JSON.stringify(c)).join(", ")}`);
        sources.push({ kind, origin: value, rows: table.rows });
      }
    }
  }
  if (sources.length === 0) throw importRefused("nothing to import: give --kind with --csv or --ids");
  if (out === undefined) throw importRefused("--out <file> is required");
  return { sources, out };
}

async function main(args: readonly string[]): Promise<number> {
  if (args.includes("--help") || args.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return args.length === 0 ? 2 : 0;
  }
  let parsed: { sources: ImportSource[]; out: string };
  try {
    parsed = parseImportFileArgs(args, (file) => fs.readFileSync(file, "utf8"));
  } catch (error) {
    process.stderr.write(`adplatform-import-file: ${(error as Error).message}\n(--help shows the usage)\n`);
    return 2;
  }
  const reader = lifecycleReader(resolveSettings([]), (message) => process.stderr.write(`adplatform-import-file: warning: ${message}\n`));
  const { file, problems } = await buildImportFile(parsed.sources, reader);
  if (problems.length > 0) {
    process.stderr.write(`adplatform-import-file: nothing written; refused:\n${problems.map((p) => `  ${p}`).join("\n")}\n`);
    return 1;
  }
  writeImportFile(parsed.out, file);
  process.stdout.write(`wrote ${parsed.out}: ${file.resources.length} resource(s); next: pulumi import --file ${parsed.out}\n`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    // The account's limiter may keep a timer for others; this command is done.
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`adplatform-import-file: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
