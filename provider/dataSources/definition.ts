/**
 * What one data source is: a catalog read operation plus the few facts the catalog does not hold
 * (the SDK function's name, how its arguments name the path parameters, how to describe the object
 * in a message, which `fields` it allows). `defineDataSource` checks a definition against its
 * operation when the module loads and rejects a malformed one, so a typo in the table fails every
 * test at import, not one user at run time.
 */
import type { z } from "zod";
import type { OperationSpec } from "../catalog";
import type { Connection } from "../client";
import { checkedJson } from "../wire/checkedJson";

/** Validated arguments of one read, by SDK argument name (`{ zoneId: "1001", id: "top-banner" }`). */
export type PathArguments = Readonly<Record<string, string>>;

/**
 * Turns a failed read into a clearer error, or returns undefined to keep the default translation.
 * Gets the client's error, the validated path arguments and the connection the read used.
 */
export type FailureExplainer = (error: unknown, args: PathArguments, connection: Connection) => Promise<Error | undefined>;

/** One data source, as the table in `definitions.ts` writes it. */
export interface DataSourceDefinition {
  /** Name of the SDK function (`getZone`); every message starts with it. */
  readonly functionName: string;
  /** The catalog GET operation it reads. Its store mode (`one` / `list`) decides the result shape. */
  readonly operation: OperationSpec;
  /** SDK argument name -> path parameter of the operation; every path parameter exactly once. */
  readonly pathArgs: Readonly<Record<string, string>>;
  /** The object a path names, for messages: `zone "999"`, `modal "1" of container "100"`. */
  readonly subject: (args: PathArguments) => string;
  /**
   * Subresources allowed in `fields` (spec, rule 9); required exactly when the operation accepts
   * `fields`. A list closes the set; `"open"` accepts any well-formed name (for an operation whose
   * subresources the spec does not name).
   */
  readonly fields?: readonly [string, ...string[]] | "open";
  /** Optional translation of failures (the zone placement explains spec, rule 5). */
  readonly explainFailure?: FailureExplainer;
}

/** A checked definition; `record` is the operation's record schema. */
export interface DataSource extends DataSourceDefinition {
  readonly record: z.ZodType;
  /**
   * The operation as the read sends it: its response is checked by the operation's schema but
   * handed on as parsed JSON, which `toSdk` maps without losing a field (`checkedJson`).
   */
  readonly readOperation: OperationSpec;
  /** `one`: the result is the record; `list`: the result is `{ total, items }`. */
  readonly shape: "one" | "list";
}

/** Thrown when a definition does not fit its operation. */
export class DataSourceDefinitionError extends Error {
  override readonly name = "DataSourceDefinitionError";
}

/** Checks `definition` against its catalog operation and returns it frozen with what it derives. */
export function defineDataSource(definition: DataSourceDefinition): DataSource {
  const { functionName, operation: op, pathArgs, fields } = definition;
  const problems: string[] = [];
  const need = (ok: boolean, reason: string) => {
    if (!ok) problems.push(reason);
  };
  need(/^get[A-Z][a-zA-Z0-9]*$/.test(functionName), "functionName must be getXxx");
  need(op.method === "GET" && op.record !== undefined, `operation ${op.name} must be a GET with a record schema`);
  need(op.store.mode === "one" || op.store.mode === "list", `operation ${op.name} must read one record or a list`);
  const mapped = Object.values(pathArgs);
  need(
    mapped.length === op.pathParams.length && op.pathParams.every((p) => mapped.includes(p)),
    `pathArgs must map onto the path parameters [${op.pathParams.join(", ")}] exactly once each`,
  );
  const reserved = Object.keys(pathArgs).filter((a) => a === "fields" || a === "query");
  need(reserved.length === 0, `argument names "fields" and "query" are reserved`);
  need(
    (fields !== undefined) === op.acceptsFields,
    op.acceptsFields
      ? `operation ${op.name} accepts fields (spec, rule 9): list the allowed subresources`
      : `operation ${op.name} does not accept fields (spec, rule 9)`,
  );
  if (problems.length > 0) {
    throw new DataSourceDefinitionError(`data source ${functionName} is malformed: ${problems.join("; ")}`);
  }
  return Object.freeze({
    ...definition,
    record: op.record!,
    readOperation: Object.freeze({ ...op, response: checkedJson(op.response!) }),
    shape: op.store.mode === "one" ? "one" : "list",
  });
}
