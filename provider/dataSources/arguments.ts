/** A data source's arguments, checked before anything is sent: a misspelt one is an error, not a different read. */
import { z } from "zod";
import { buildPath, pathParamProblem } from "../catalog";
import type { DataSource, PathArguments } from "./dataSource";
import { DataSourceArgumentError } from "./errors";

/** What a read sends, after validation. */
export interface ReadRequest {
  /** By SDK name (`zoneId`), for messages. */
  readonly args: PathArguments;
  /** By the operation's wire name (`placement_id`). */
  readonly pathParams: Readonly<Record<string, string>>;
  /** For messages. */
  readonly path: string;
  /** Deduplicated and sorted (the same set in another order is the same read). */
  readonly fields: readonly string[];
  readonly query: Readonly<Record<string, string>>;
}

/** spec, Conventions: identifiers are strings, their content not ruled out, so whitespace is sent as given. */
const PathValue = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .min(1, "must not be empty");

/** Where the spec names none. No comma: the platform would count more subresources (Limits 7) than the limiter charged. */
const SubresourceName = z
  .string({ error: "must be a string" })
  .regex(/^[a-z][a-z0-9_]*$/, "must be a subresource name: lowercase letters, digits and _");

const cache = new WeakMap<DataSource, z.ZodType>();

function schemaOf(source: DataSource): z.ZodType {
  let schema = cache.get(source);
  if (!schema) {
    const shape: Record<string, z.ZodType> = {};
    for (const arg of Object.keys(source.pathArgs)) shape[arg] = PathValue;
    if (source.fields === "open") {
      shape.fields = z.array(SubresourceName).optional();
    } else if (source.fields) {
      const names = source.fields.map((f) => `"${f}"`).join(", ");
      shape.fields = z.array(z.enum(source.fields, { error: `must be one of ${names}` })).optional();
    }
    if (source.operation.acceptsQuery) {
      shape.query = z
        .record(z.string(), z.string({ error: "query values must be strings" }))
        .refine((q) => !Object.hasOwn(q, "fields"), {
          // spec, Limits 7: `fields` changes the cost of the request, so it goes through the typed
          // argument the limiter counts, never through the pass-through query.
          message: source.fields ? 'use the "fields" argument, not query.fields' : "this operation takes no fields (spec, rule 9)",
        })
        .optional();
    }
    schema = z.strictObject(shape);
    cache.set(source, schema);
  }
  return schema;
}

/** Formats zod issues as `path: message`, the path in the caller's terms (`fields[1]`). */
function describeIssues(source: DataSource, issues: readonly z.core.$ZodIssue[]): string[] {
  const expected = [
    ...Object.keys(source.pathArgs),
    ...(source.fields ? ["fields"] : []),
    ...(source.operation.acceptsQuery ? ["query"] : []),
  ];
  return issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const known = expected.length > 0 ? expected.join(", ") : "no arguments";
      return issue.keys.map((k) => `unknown argument "${k}" (expects ${known})`).join("; ");
    }
    const path = issue.path.reduce<string>(
      (acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)),
      "",
    );
    if (path === "" && issue.code === "invalid_type") return `arguments must be an object`;
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

/** What to send for the caller's arguments (undefined is `{}`), or a `DataSourceArgumentError` listing every problem. */
export function parseArguments(source: DataSource, raw: unknown): ReadRequest {
  const input = raw === undefined || raw === null ? {} : raw;
  const parsed = schemaOf(source).safeParse(input);
  if (!parsed.success) {
    throw new DataSourceArgumentError(source.functionName, describeIssues(source, parsed.error.issues));
  }
  const value = parsed.data as Record<string, unknown>;
  const args: Record<string, string> = {};
  const pathParams: Record<string, string> = {};
  for (const [arg, param] of Object.entries(source.pathArgs)) {
    args[arg] = value[arg] as string;
    pathParams[param] = value[arg] as string;
  }
  // The path refuses "." and ".." and over-long values: name the argument that fills the parameter.
  const problem = pathParamProblem(source.operation, pathParams);
  if (problem !== undefined) {
    const arg = Object.keys(source.pathArgs).find((a) => source.pathArgs[a] === problem.param);
    throw new DataSourceArgumentError(source.functionName, [arg ? `${arg}: ${problem.reason}` : problem.reason]);
  }
  const path = buildPath(source.operation, pathParams);
  const fields = [...new Set((value.fields as string[] | undefined) ?? [])].sort();
  const query = { ...((value.query as Record<string, string> | undefined) ?? {}) };
  return Object.freeze({ args: Object.freeze(args), pathParams: Object.freeze(pathParams), path, fields, query });
}
