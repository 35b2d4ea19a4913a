/**
 * Validation of a data source's arguments before anything is sent: invalid input never reaches the
 * network. The schema is built from the definition: one string per path argument,
 * `fields` when the operation accepts it, `query` when the operation accepts query parameters, and
 * nothing else (a misspelt argument is an error, not a silently different read).
 */
import { z } from "zod";
import { buildPath, pathParamProblem } from "../catalog";
import type { DataSource, PathArguments } from "./dataSource";
import { DataSourceArgumentError } from "./errors";

/** What a read sends, after validation. */
export interface ReadRequest {
  /** Validated path arguments by SDK name (`zoneId`), for messages. */
  readonly args: PathArguments;
  /** Path parameters by the operation's wire name (`id`, `placement_id`). */
  readonly pathParams: Readonly<Record<string, string>>;
  /** The filled path, e.g. `/v2/adex/zones/1001`, for messages. */
  readonly path: string;
  /** Subresources, deduplicated and sorted (the same set in another order is the same read). */
  readonly fields: readonly string[];
  /** Other query parameters, passed through as given. */
  readonly query: Readonly<Record<string, string>>;
}

/**
 * An id argument is a non-empty string: the spec says identifiers are strings (Conventions) and
 * rules out nothing about their content, so surrounding whitespace is sent as given (percent-encoded),
 * as resources send it; `.` and `..` are refused by the path builder, which cannot send them.
 */
const PathValue = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .min(1, "must not be empty");

/**
 * A subresource name where the spec names none. It must not hold a comma: `fields` is sent as one
 * comma-separated value, and a comma inside a name would make the platform count more
 * subresources (spec, Limits 7) than the limiter charged.
 */
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

/**
 * Validates `raw` (the caller's arguments; undefined is `{}` for reads without path arguments) and
 * returns what to send. Throws a `DataSourceArgumentError` listing every problem.
 */
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
  // The path refuses "." and ".." (URL normalisation would change the path) and over-long values:
  // name the argument that fills the parameter.
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
