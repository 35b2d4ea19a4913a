/**
 * An import file from sources (rows of one kind each, from a CSV or a list of ids), and the read of
 * the objects the platform can read through the lifecycle, so an entry holds what `pulumi import`
 * by id would record, fetched through the account's shared client and its rate limiter.
 */
import * as fs from "node:fs";
import type { Settings } from "../../configuration";
import { createNewFile } from "../../infrastructure";
import { isAdPlatformError } from "../../errors";
import { CreateSession, resourceLifecycle } from "../../resources";
import type { LifecycleContext, ResourceKind } from "../../resources";
import type { CsvRow } from "./csv";
import { entryOfRow, type ImportEntry, type ImportFile, type ReadObject } from "./entries";

/** Rows of one kind. */
export interface ImportSource {
  readonly kind: ResourceKind;
  /** Where the rows come from, for messages: the CSV's path, or `--ids`. */
  readonly origin: string;
  readonly rows: readonly CsvRow[];
}

/** The rows of a list of ids: one row per id, its only cell the `id` column. */
export function rowsOfIds(ids: readonly string[]): CsvRow[] {
  return ids.map((id, index) => ({ line: index + 1, cells: { id } }));
}

/**
 * Reads objects with the kind's lifecycle `read` as an import does (no state yet), with `settings`'
 * account; its warnings (a rounded number) go to `warn`. A read that finds nothing says nothing.
 */
export function lifecycleReader(settings: Settings, warn: (message: string) => void): ReadObject {
  const createSession = new CreateSession();
  return async (kind, id) => {
    const warnings: string[] = [];
    const ctx: LifecycleContext = {
      settings,
      createSession,
      warn: async (message) => void warnings.push(message),
      info: async () => undefined,
    };
    const result = await resourceLifecycle(kind).read(id, undefined, ctx);
    if (result === undefined) return undefined;
    warnings.forEach(warn);
    return { inputs: result.inputs as Record<string, unknown>, outputs: result.outputs as Record<string, unknown> };
  };
}

/**
 * The import file of `sources`, or every problem found (each row refused with its reasons, a
 * repeated object, a read that failed): nothing is half written.
 */
export async function buildImportFile(
  sources: readonly ImportSource[],
  read: ReadObject,
): Promise<{ file: ImportFile; problems: readonly string[] }> {
  const resources: ImportEntry[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const { kind, origin, rows } of sources) {
    for (const row of rows) {
      try {
        const entry = await entryOfRow(kind, row, read);
        const key = `${entry.type} ${entry.id}`;
        const first = seen.get(key);
        if (first !== undefined) {
          problems.push(`${origin}: row ${row.line} (${kind} ${entry.id}): the same object as ${first}`);
          continue;
        }
        seen.set(key, `${origin} row ${row.line}`);
        resources.push(entry);
      } catch (error) {
        const message = isAdPlatformError(error, "ADP_ERR_IMPORT_REFUSED")
          ? error.message
          : `row ${row.line} (${kind}): ${(error as Error).message}`;
        problems.push(`${origin}: ${message}`);
      }
    }
  }
  return { file: { resources }, problems };
}

/** Writes `file` as JSON to `path`, a new private file (created without following a link; never overwritten). */
export function writeImportFile(path: string, file: ImportFile): void {
  const fd = createNewFile(path);
  try {
    fs.writeFileSync(fd, `${JSON.stringify(file, null, 2)}\n`);
  } finally {
    fs.closeSync(fd);
  }
}
