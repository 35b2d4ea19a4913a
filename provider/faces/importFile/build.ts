/**
 * An import file from sources (rows of a CSV or a list of ids); the objects the platform can read
 * are read through the lifecycle, as `pulumi import` by id would, with the account's shared client.
 */
import * as fs from "node:fs";
import type { Settings } from "../../configuration";
import { createNewFile } from "../../infrastructure";
import { isAdPlatformError } from "../../errors";
import { CreateSession, resourceLifecycle } from "../../resources";
import type { ResourceKind } from "../../resources";
import type { CsvRow } from "./csv";
import { entryOfRow, type ImportEntry, type ImportFile, type ReadObject } from "./entries";

export interface ImportSource {
  readonly kind: ResourceKind;
  /** For messages: the CSV's path, or `--ids`. */
  readonly origin: string;
  readonly rows: readonly CsvRow[];
}

export const rowsOfIds = (ids: readonly string[]): CsvRow[] => ids.map((id, index) => ({ line: index + 1, cells: { id } }));

/** Reads as an import does (no state yet); warnings (a rounded number) go to `warn`, unless it finds nothing. */
export function lifecycleReader(settings: Settings, warn: (message: string) => void): ReadObject {
  const createSession = new CreateSession();
  return async (kind, id) => {
    const warnings: string[] = [];
    const result = await resourceLifecycle(kind).read(id, undefined, {
      settings,
      createSession,
      warn: async (message) => void warnings.push(message),
      info: async () => undefined,
    });
    if (result === undefined) return undefined;
    warnings.forEach(warn);
    return { inputs: result.inputs as Record<string, unknown>, outputs: result.outputs as Record<string, unknown> };
  };
}

/** The import file of `sources`, and every problem found (a refused row, a repeated object, a failed read). */
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

/** A new private file (created without following a link; never overwritten). */
export function writeImportFile(path: string, file: ImportFile): void {
  const fd = createNewFile(path);
  try {
    fs.writeFileSync(fd, `${JSON.stringify(file, null, 2)}\n`);
  } finally {
    fs.closeSync(fd);
  }
}
