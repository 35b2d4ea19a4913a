/**
 * Rows of an account export -> entries of a Pulumi import file (`pulumi import --file`, CLI 3.254+) with
 * each object's `inputs` and `outputs`, so the engine reads nothing the API cannot read (spec, Endpoints).
 * A row is checked by the schema the provider's `check` uses, so it is refused where a program would fail
 * its preview. Campaign groups are read, taking from the row only what the read cannot return (`items`);
 * a row value contradicting the platform's is refused, since groups cannot be updated.
 */
import type { AnyResourceDefinition, ResourceKind } from "../../resources";
import { RESOURCE_DEFINITIONS, checkInputs, type InputSchema, diffInputs } from "../../resources";
import { snakeToCamel } from "../../wire";
import { IMPORTABLE_KINDS } from "../native/importSupport";
import { resourceToken } from "../native/tokens";
import { type CsvRow, importRefused } from "./csv";

/** One resource of an import file; with `outputs` the engine skips the provider's read. */
export interface ImportEntry {
  /** `adplatform:index:<Kind>`. */
  readonly type: string;
  readonly name: string;
  readonly id: string;
  readonly inputs: Record<string, unknown>;
  readonly outputs: Record<string, unknown>;
}

export interface ImportFile {
  readonly resources: ImportEntry[];
}

/** The state of an object of a kind the platform can read, or nothing when there is none. */
export type ReadObject = (
  kind: ResourceKind,
  id: string,
) => Promise<{ inputs: Record<string, unknown>; outputs: Record<string, unknown> } | undefined>;

/** The field `column` names: an SDK or wire name, or `id` (the object's own: a modifier's `bidModifierId`, a variation's `variationId`). */
export function fieldOfColumn(definition: AnyResourceDefinition, column: string): string | undefined {
  const { adoption, fields } = definition;
  if (column === "id") return adoption.by === "ids" ? adoption.ids.at(-1) : "id";
  for (const name of [column, snakeToCamel(column)]) if (Object.prototype.hasOwnProperty.call(fields, name)) return name;
  return undefined;
}

/** The columns `kind` has no field for, said before reading any row. */
export function unknownColumns(kind: ResourceKind, columns: readonly string[]): string[] {
  return columns.filter((column) => fieldOfColumn(RESOURCE_DEFINITIONS[kind], column) === undefined);
}

/** The text when the schema takes it, else its JSON (`["5001","5002"]`), so a refusal is about the value meant; empty: absent. */
function cellValue(definition: AnyResourceDefinition, field: string, cell: string): unknown {
  if (cell === "") return undefined;
  const schema = definition.fields[field]?.schema;
  if (schema === undefined || schema.safeParse(cell).success) return cell;
  try {
    return JSON.parse(cell) as unknown;
  } catch {
    return cell;
  }
}

/** `row N (<Kind> <id>)`. */
const rowLabel = (kind: ResourceKind, row: CsvRow, id: string | undefined) => `row ${row.line} (${kind}${id ? ` ${id}` : ""})`;

/** `variation-301-2`. */
export function entryName(kind: ResourceKind, id: string): string {
  const noun = RESOURCE_DEFINITIONS[kind].noun.split(" ").at(-1)!;
  return `${noun}-${id.replace(/\//g, "-")}`;
}

/** The entry of a row, or an `ADP_ERR_IMPORT_REFUSED` naming the row and each field refused; `read` only for readable kinds. */
export async function entryOfRow(kind: ResourceKind, row: CsvRow, read: ReadObject): Promise<ImportEntry> {
  const definition = RESOURCE_DEFINITIONS[kind];
  const { adoption } = definition;
  const given: Record<string, unknown> = {};
  let ownId: string | undefined;
  for (const [column, cell] of Object.entries(row.cells)) {
    const field = fieldOfColumn(definition, column);
    if (field === undefined)
      throw importRefused(`${rowLabel(kind, row, undefined)}: column ${JSON.stringify(column)} is no field of ${kind}`);
    if (field === "id") ownId = cell.trim() || undefined;
    else {
      const value = cellValue(definition, field, cell);
      if (value !== undefined) given[field] = value;
    }
  }
  const id = adoption.by === "ids" ? adoption.ids.map((field) => given[field]).join("/") : ownId;
  const label = rowLabel(kind, row, id && !id.split("/").includes("") ? id : undefined);
  const refuse = (problems: readonly string[]) => importRefused(`${label}: ${problems.join("; ")}`);
  if (adoption.by === "adoptId" && id === undefined) throw refuse(["id: is required"]);

  if (!IMPORTABLE_KINDS.has(kind)) {
    const { inputs, failures } = checkInputs(definition.inputs as unknown as InputSchema, given);
    if (failures.length > 0) throw refuse(failures.map((f) => `${f.property || "(row)"}: ${f.reason}`));
    const values = inputs as Record<string, unknown>;
    // The kinds the API cannot read hold their inputs as their state (their create answers nothing more).
    return { type: resourceToken(kind), name: entryName(kind, id!), id: id!, inputs: values, outputs: { ...values } };
  }

  const found = await read(kind, id!);
  if (found === undefined) throw refuse([`the platform has no ${definition.noun} with this id`]);
  // A value the row gives beside the platform's must be the platform's (these kinds cannot be updated).
  const compared = Object.fromEntries(
    Object.entries(definition.diff).filter(([field]) => given[field] !== undefined && found.inputs[field] !== undefined),
  );
  const contradicted = diffInputs(compared, found.inputs, given).changed;
  if (contradicted.length > 0) {
    throw refuse(
      contradicted.map((f) => `${f}: is ${JSON.stringify(found.inputs[f])} on the platform but ${JSON.stringify(given[f])} in the row`),
    );
  }
  const { inputs, failures } = checkInputs(definition.existingInputs as unknown as InputSchema, { ...given, ...found.inputs });
  if (failures.length > 0) throw refuse(failures.map((f) => `${f.property || "(row)"}: ${f.reason}`));
  const values = inputs as Record<string, unknown>;
  // What the read could not return (a group's items) comes from the row, into the state as well.
  const fromRow = Object.fromEntries(
    Object.keys(given)
      .filter((field) => found.inputs[field] === undefined)
      .map((field) => [field, values[field]]),
  );
  // Fields the read left undefined (a group's items) are no part of a JSON file.
  const outputs = Object.fromEntries(Object.entries({ ...found.outputs, ...fromRow }).filter(([, value]) => value !== undefined));
  return { type: resourceToken(kind), name: entryName(kind, id!), id: id!, inputs: values, outputs };
}
