/**
 * One data source: a catalog read plus the SDK function, its arguments, how messages name the object,
 * its `fields` and docs. `defineDataSource` checks it at load, so a typo fails every test at import.
 */
import type { z } from "zod";
import type { OperationSpec } from "../catalog";
import type { Connection } from "../client";
import { answeredAsParsed } from "../wire";
import { AdPlatformError } from "../errors";

/** Validated arguments of one read, by SDK argument name (`{ zoneId: "1001", id: "top-banner" }`). */
export type PathArguments = Readonly<Record<string, string>>;

/** A clearer error for a failed read, or undefined to keep the default translation. */
export type FailureExplainer = (error: unknown, args: PathArguments, connection: Connection) => Promise<Error | undefined>;

/** An argument that fills one path parameter (`id`, `placement_id`), and what to pass, for users. */
export interface PathArgument {
  readonly param: string;
  readonly description: string;
}

/** The subresources a read may embed through `fields`, and what `fields` does, for users. */
export interface FieldsArgument {
  /** spec, rule 9. A list closes the set; `"open"` accepts any well-formed name (the spec names none). */
  readonly names: readonly [string, ...string[]] | "open";
  readonly description: string;
}

/** One row of `definitions.ts`; its result is the operation's record schema. */
export interface DataSourceDefinition {
  /** Name of the SDK function (`getZone`); every message starts with it. */
  readonly functionName: string;
  /** What it reads, for users (markdown; the first paragraph is the summary the schema shows). */
  readonly description: string;
  readonly example: string;
  /** The errors a user can expect and when (`DataSourceNotFoundError when no zone has this id.`). */
  readonly throws?: readonly string[];
  /** The catalog GET operation; what it `reads` decides the result shape. */
  readonly operation: OperationSpec;
  /** By SDK argument name; every path parameter exactly once. */
  readonly args: Readonly<Record<string, PathArgument>>;
  /** Required exactly when the operation accepts `fields` (spec, rule 9). */
  readonly fields?: FieldsArgument;
  /** What `query` does, for users, where it says more than `QUERY_DESCRIPTION`. */
  readonly query?: string;
  readonly list?: { readonly total: string; readonly items: string };
  /** The object a path names, for messages: `zone "999"`, `modal "1" of container "100"`. */
  readonly subject: (args: PathArguments) => string;
  readonly explainFailure?: FailureExplainer;
}

export const QUERY_DESCRIPTION = "Query parameters, passed to the platform as given: their names are not checked.";

/** A checked definition, with what the engine derives from it. */
export interface DataSource extends Omit<DataSourceDefinition, "fields"> {
  /** SDK argument name -> path parameter. */
  readonly pathArgs: Readonly<Record<string, string>>;
  readonly fields?: FieldsArgument["names"];
  readonly fieldsDescription?: string;
  readonly queryDescription?: string;
  readonly record: z.ZodType;
  /** The operation with its response checked but handed on as parsed JSON, which `toSdk` maps without losing a field. */
  readonly readOperation: OperationSpec;
  /** `one`: the record; `list`: `{ total, items }`. */
  readonly shape: "one" | "list";
}

/** Checks `definition` against its catalog operation and returns it frozen with what it derives. */
export function defineDataSource(definition: DataSourceDefinition): DataSource {
  const { functionName, operation: op, fields } = definition;
  const pathArgs = Object.fromEntries(Object.entries(definition.args).map(([arg, { param }]) => [arg, param]));
  const problems: string[] = [];
  const need = (ok: boolean, reason: string) => {
    if (!ok) problems.push(reason);
  };
  need(/^get[A-Z][a-zA-Z0-9]*$/.test(functionName), "functionName must be getXxx");
  need(op.method === "GET" && op.record !== undefined, `operation ${op.name} must be a GET with a record schema`);
  need(op.reads === "one" || op.reads === "list", `operation ${op.name} must read one record or a list`);
  need((definition.list !== undefined) === (op.reads === "list"), "list must describe total and items exactly when the read is a list");
  const mapped = Object.values(pathArgs);
  need(
    mapped.length === op.pathParams.length && op.pathParams.every((p) => mapped.includes(p)),
    `args must fill the path parameters [${op.pathParams.join(", ")}] exactly once each`,
  );
  need(!Object.hasOwn(pathArgs, "fields") && !Object.hasOwn(pathArgs, "query"), `argument names "fields" and "query" are reserved`);
  need(
    (fields !== undefined) === op.acceptsFields,
    op.acceptsFields
      ? `operation ${op.name} accepts fields (spec, rule 9): list the allowed subresources`
      : `operation ${op.name} does not accept fields (spec, rule 9)`,
  );
  need(
    definition.query === undefined || op.acceptsQuery,
    `operation ${op.name} takes no query parameters (spec, rule 9): query needs no description`,
  );
  if (problems.length > 0) {
    throw new AdPlatformError("ADP_ERR_DEFINITION", `data source ${functionName} is malformed: ${problems.join("; ")}`);
  }
  return Object.freeze({
    ...definition,
    pathArgs: Object.freeze(pathArgs),
    fields: fields?.names,
    fieldsDescription: fields?.description,
    queryDescription: op.acceptsQuery
      ? (definition.query ?? (fields ? `${QUERY_DESCRIPTION} Subresources go in \`fields\`.` : QUERY_DESCRIPTION))
      : undefined,
    record: op.record!,
    readOperation: answeredAsParsed(op),
    shape: op.reads === "one" ? "one" : "list",
  });
}
