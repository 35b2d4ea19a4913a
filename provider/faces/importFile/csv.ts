/**
 * The CSV of an account export (RFC 4180: quoted fields may hold commas, line breaks and doubled
 * quotes; LF or CRLF); the first line names the columns. A page long, rather than a dependency.
 */
import { AdPlatformError } from "../../errors";

/** What the command refuses an argument, a CSV or a row with; it then writes nothing. */
export const importRefused = (message: string): AdPlatformError => new AdPlatformError("ADP_ERR_IMPORT_REFUSED", message);

/** A data line: its 1-based line number and its cells by column. */
export interface CsvRow {
  readonly line: number;
  readonly cells: Readonly<Record<string, string>>;
}

export interface CsvTable {
  readonly columns: readonly string[];
  readonly rows: readonly CsvRow[];
}

/** Records of fields, each with the line it starts on. */
function records(text: string): { line: number; fields: string[] }[] {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRecord = () => {
    fields.push(field);
    // A blank line is no record.
    if (!(fields.length === 1 && fields[0] === "")) out.push({ line: start, fields });
    fields = [];
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"') {
      // A doubled quote is one quote; a single one closes the field.
      if (text[i + 1] === '"') field += text[i++];
      else quoted = false;
    } else if (quoted) {
      if (c === "\n") line += 1;
      field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
      endRecord();
      if (c === "\r") i++;
      line += 1;
      start = line;
    } else field += c;
  }
  if (quoted) throw importRefused(`line ${start}: a quoted field is not closed`);
  if (field !== "" || fields.length > 0) endRecord();
  return out;
}

/** Refuses, naming the line, an unclosed quote, a repeated or empty column name, or more cells than columns. */
export function parseCsv(text: string): CsvTable {
  const [header, ...data] = records(text.replace(/^\uFEFF/, ""));
  if (header === undefined) throw importRefused("the CSV is empty: its first line names the columns");
  const columns = header.fields.map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of columns) {
    if (name === "") throw importRefused(`line ${header.line}: a column has no name`);
    if (seen.has(name)) throw importRefused(`line ${header.line}: column ${JSON.stringify(name)} appears twice`);
    seen.add(name);
  }
  const rows = data.map(({ line, fields }) => {
    if (fields.length > columns.length)
      throw importRefused(`line ${line}: ${fields.length} cells, but the header names ${columns.length} columns`);
    return { line, cells: Object.fromEntries(columns.map((name, index) => [name, fields[index] ?? ""])) };
  });
  return { columns, rows };
}
