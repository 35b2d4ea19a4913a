/** Turns a catalog entry into an `OperationSpec` derived from it alone, rejecting a malformed one when the catalog loads. */
import { RATE_CLASSES, costOne, costWithFields } from "./rateClasses";
import type { OperationSpec } from "./types";
import { AdPlatformError } from "../errors";

/** What a catalog entry states; the rest of an `OperationSpec` is derived (missing booleans are false). */
export type OperationDefinition = Omit<OperationSpec, "pathParams" | "cost" | "idempotent" | "acceptsFields" | "acceptsQuery"> &
  Partial<Pick<OperationSpec, "acceptsFields" | "acceptsQuery">>;

/** Keeps the entry's literals and exact schema types, so `z.output<typeof op.record>` is the record type. */
export type DefinedOperation<D extends OperationDefinition> = OperationSpec &
  Pick<D, "number" | "name" | "method" | "path" | "successStatus"> & {
    readonly request: D["request"];
    readonly response: D["response"];
    readonly record: D["record"];
  };

function catalogError(message: string): AdPlatformError {
  return new AdPlatformError("ADP_ERR_DEFINITION", message);
}

const SEGMENT_LITERAL = /^[a-z0-9][a-z0-9-]*$/;
const SEGMENT_PARAM = /^\{([a-z][a-z0-9_]*)\}$/;
const OPERATION_NAME = /^[a-z][a-zA-Z0-9]*$/;

/** Path parameter names of a template in order; throws on a malformed template. */
export function parsePathTemplate(path: string): string[] {
  if (!path.startsWith("/") || path.endsWith("/") || path.includes("//")) {
    throw catalogError(`path "${path}" must start with "/" and have no empty segment`);
  }
  const params: string[] = [];
  for (const segment of path.slice(1).split("/")) {
    const param = SEGMENT_PARAM.exec(segment);
    if (param) {
      if (params.includes(param[1])) throw catalogError(`path "${path}" repeats {${param[1]}}`);
      params.push(param[1]);
    } else if (!SEGMENT_LITERAL.test(segment)) {
      throw catalogError(`path "${path}" has a malformed segment "${segment}"`);
    }
  }
  return params;
}

/** The reasons an entry is malformed (none when well-formed). */
function problemsOf(def: OperationDefinition): string[] {
  const problems: string[] = [];
  const need = (ok: unknown, reason: string) => {
    if (!ok) problems.push(reason);
  };
  need(Number.isInteger(def.number) && def.number > 0, "number must be a positive integer");
  need(OPERATION_NAME.test(def.name), "name must be camelCase");
  need(def.rateClass in RATE_CLASSES, `unknown rate class "${String(def.rateClass)}"`);
  need(!def.acceptsFields || def.acceptsQuery, "acceptsFields requires acceptsQuery (fields is a query parameter)");
  need((def.response !== undefined) === (def.successStatus !== 204), "a 204 has no response schema and every other status has one");
  need(def.method === "GET" || def.record === undefined, "only reads have a record schema");
  need(def.method === "GET" || def.reads === undefined, "only reads have a read shape");

  if (def.method === "GET") {
    need(def.request === undefined, "GET takes no request body");
    need(def.record !== undefined, "GET needs a record schema");
    need(def.response !== undefined, "GET needs a response (envelope) schema");
    need(def.successStatus === 200, "GET answers 200");
    need(def.reads === "one" || def.reads === "list", 'GET reads "one" or "list"');
  } else if (def.method === "POST" || def.method === "PATCH") {
    need(def.request !== undefined, `${def.method} needs a request schema`);
    need(def.method !== "POST" || def.successStatus === 201, "POST answers 201 (spec, Endpoints 2 and 3)");
    need(def.method !== "PATCH" || def.successStatus === 204, "PATCH answers 204 (spec, rule 1)");
    need(!def.acceptsFields, "only GET takes fields");
  } else {
    problems.push(`unknown method "${String(def.method)}"`);
  }

  return problems;
}

/** The entry as an `OperationSpec`, or throws `ADP_ERR_DEFINITION` listing what is wrong. */
export function defineOperation<const D extends OperationDefinition>(def: D): DefinedOperation<D> {
  let pathParams: string[];
  try {
    pathParams = parsePathTemplate(def.path);
  } catch (err) {
    throw catalogError(`operation ${def.number} (${def.name}): ${(err as Error).message}`);
  }
  const problems = problemsOf(def);
  if (problems.length > 0) {
    throw catalogError(`operation ${def.number} (${def.name}) is malformed: ${problems.join("; ")}`);
  }
  const acceptsFields = def.acceptsFields ?? false;
  const spec: OperationSpec = {
    ...def,
    pathParams: Object.freeze(pathParams),
    cost: acceptsFields ? costWithFields : costOne,
    acceptsFields,
    acceptsQuery: def.acceptsQuery ?? false,
    idempotent: def.method !== "POST",
  };
  return Object.freeze(spec) as DefinedOperation<D>;
}

/** The entries frozen, after checking that numbers are 1..N in order and names unique. */
export function defineCatalog<const T extends readonly OperationSpec[]>(operations: T): T {
  const names = new Set<string>();
  operations.forEach((op, index) => {
    if (op.number !== index + 1) {
      throw catalogError(`catalog entry ${index + 1} has number ${op.number}: numbers must be 1..N in order`);
    }
    if (names.has(op.name)) throw catalogError(`operation name "${op.name}" is used twice`);
    names.add(op.name);
  });
  return Object.freeze([...operations]) as unknown as T;
}
