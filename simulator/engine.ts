/**
 * The one engine that carries out any catalog operation against the store, driven by the
 * operation's `StoreBinding` (`bindings.ts`: collection, path-param match, mode), its request
 * schema, its response schema and the collection rules of `rules.ts`. Adding an operation is a
 * catalog entry, its binding and seed data.
 */
import { z } from "zod";
import type { OperationSpec } from "../provider/catalog";
import { type ErrorBody, errorBody, invalidBody, invalidRequest } from "./errors";
import { bindingOf } from "./bindings";
import { rulesOf } from "./rules";
import type { WireRecord } from "./state";
import type { Store } from "./store";

/** One API call after routing, authentication and admission. */
export interface EngineCall {
  readonly op: OperationSpec;
  /** Decoded path parameters by name. */
  readonly params: Readonly<Record<string, string>>;
  /** Parsed JSON body; undefined when none was sent. */
  readonly body: unknown;
  readonly account: string;
  readonly companyId: string;
  /** Server time as `YYYY-MM-DD HH:MM:SS` (spec, Conventions). */
  readonly timestamp: string;
  /** Server time, ms on the simulator's clock. */
  readonly now: number;
  /** Reads do not see a record created through the API until this long after its create (the `hideCreatedForMs` fault), ms. */
  readonly hideCreatedForMs: number;
}

/** What the engine answers: a status and an optional JSON body. */
export interface EngineResult {
  status: number;
  body?: unknown;
}

/** Path parameters translated to record fields through the binding's `match`. */
function whereOf(op: OperationSpec, params: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(bindingOf(op).match).map(([param, field]) => [field, params[param]]));
}

function fail(status: number, body: ErrorBody): EngineResult {
  return { status, body };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; ");
}

/** Validates a request body with the operation's schema; a failure is the spec's 400. */
function parseBody(op: OperationSpec, body: unknown): { ok: true; data: WireRecord } | { ok: false; result: EngineResult } {
  if (body === undefined) return { ok: false, result: fail(400, invalidBody("a JSON body is required")) };
  const parsed = op.request!.safeParse(body);
  if (!parsed.success) return { ok: false, result: fail(400, invalidBody(describeIssues(parsed.error))) };
  return { ok: true, data: parsed.data as WireRecord };
}

/** The read view of a stored record: a copy without the collection's hidden fields. */
function view(collection: string, record: WireRecord): WireRecord {
  const copy = structuredClone(record);
  for (const field of rulesOf(collection).hiddenOnRead ?? []) delete copy[field];
  return copy;
}

/** The fields the response schema declares, when it is an object schema. */
function responseFields(op: OperationSpec): string[] | undefined {
  if (!(op.response instanceof z.ZodObject)) return undefined;
  const fields = Object.keys(op.response.shape);
  return fields.includes("id") ? ["id", ...fields.filter((f) => f !== "id")] : fields;
}

/** 404 when the parent is missing, 400 when it fails its rule (e.g. spec, rule 5), else nothing. */
function checkParent(store: Store, call: EngineCall, where: Record<string, string>): EngineResult | undefined {
  const rule = rulesOf(bindingOf(call.op).collection).parent;
  const parentId = rule ? where[rule.via] : undefined;
  if (!rule || parentId === undefined) return undefined;
  const parent = store.find(call.account, rule.collection, { id: parentId });
  if (!parent) return fail(404, errorBody(404, `${rule.collection} ${parentId} was not found`));
  if (String(parent[rule.field]) !== rule.equals) {
    return fail(400, invalidRequest(rule.message(parentId, parent[rule.field])));
  }
  return undefined;
}

/**
 * Decision (not shown in spec: "Status codes other than 400, 429 and 500"): a path naming no record
 * is a 404 with the 400 body shape. A PATCH body is validated first, so an invalid body for an
 * unknown id is a 400.
 */
function notFound(call: EngineCall): EngineResult {
  const path = Object.entries(call.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  return fail(404, errorBody(404, `no ${bindingOf(call.op).collection} record matches ${path}`));
}

/** Whether reads see `record` yet (see `EngineCall.hideCreatedForMs`). */
function shown(store: Store, call: EngineCall, record: WireRecord): boolean {
  const createdAt = store.createdAt(record);
  return createdAt === undefined || call.now - createdAt >= call.hideCreatedForMs;
}

function readOne(store: Store, call: EngineCall): EngineResult {
  const where = whereOf(call.op, call.params);
  const parentProblem = checkParent(store, call, where);
  if (parentProblem) return parentProblem;
  const collection = bindingOf(call.op).collection;
  const record = store.find(call.account, collection, where);
  if (!record || !shown(store, call, record)) return notFound(call);
  // spec, Conventions: a single-record read returns `items` with one element.
  return { status: call.op.successStatus, body: { total: 1, items: [view(collection, record)] } };
}

function readList(store: Store, call: EngineCall): EngineResult {
  const collection = bindingOf(call.op).collection;
  // Decision (not shown in spec): a list whose path parent has no records (e.g. a container
  // without prompts, or an unknown container) is an empty list, not a 404.
  const items = store
    .filter(call.account, collection, whereOf(call.op, call.params))
    .filter((r) => shown(store, call, r))
    .map((r) => view(collection, r));
  const total = rulesOf(collection).totalAsString ? String(items.length) : items.length;
  return { status: call.op.successStatus, body: { total, items } };
}

function create(store: Store, call: EngineCall): EngineResult {
  const parsed = parseBody(call.op, call.body);
  if (!parsed.ok) return parsed.result;
  const collection = bindingOf(call.op).collection;
  const record: WireRecord = {
    id: store.nextId(),
    company_id: call.companyId,
    ...whereOf(call.op, call.params),
    ...parsed.data,
    create_time: call.timestamp,
    update_time: call.timestamp,
  };
  Object.assign(record, rulesOf(collection).derivedOnCreate?.(record));
  store.insert(call.account, collection, record, call.now);
  // spec, Endpoints 2 and 3: the create body carries the fields its response schema declares
  // (op 2: id, company_id, name, color, items; op 3: only id).
  const fields = responseFields(call.op);
  const body = fields ? Object.fromEntries(fields.filter((f) => f in record).map((f) => [f, record[f]])) : record;
  return { status: call.op.successStatus, body: structuredClone(body) };
}

function patch(store: Store, call: EngineCall): EngineResult {
  const parsed = parseBody(call.op, call.body);
  if (!parsed.ok) return parsed.result;
  const changes = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  // spec, Endpoints 1 and 4: at least one field must be sent (also refused by the catalog schemas).
  if (Object.keys(changes).length === 0) return fail(400, invalidBody("at least one field must be sent"));
  const collection = bindingOf(call.op).collection;
  for (const [winner, loser] of rulesOf(collection).precedence ?? []) {
    if (winner in changes && loser in changes) delete changes[loser];
  }
  const record = store.find(call.account, collection, whereOf(call.op, call.params));
  if (!record) return notFound(call);
  // spec, Endpoints 1 and 4: omitted fields stay unchanged. Decision (not shown in spec): a sent
  // field replaces the stored value whole (no deep merge of `targeting` or `settings`).
  Object.assign(record, structuredClone(changes), { update_time: call.timestamp });
  return { status: call.op.successStatus };
}

/** Carries out one operation; never throws for a client mistake (those are 400/404 results). */
export function runOperation(store: Store, call: EngineCall): EngineResult {
  switch (bindingOf(call.op).mode) {
    case "one":
      return readOne(store, call);
    case "list":
      return readList(store, call);
    case "create":
      return create(store, call);
    case "patch":
      return patch(store, call);
  }
}
