/**
 * Where the simulator keeps the records each catalog operation touches, and how the operation's
 * path parameters select them. This is the simulator's side of the catalog, kept here because the
 * provider never uses it. What the catalog already says is derived from it, not written again: the
 * mode comes from the operation's method and what it `reads`, and a binding's match must name
 * exactly the operation's path parameters. `defineBindings` refuses, when this module loads, a
 * table that has drifted from the catalog: an operation without a binding, a binding of no
 * operation, or a match that is not the operation's path parameters.
 */
import { OPERATIONS, type OperationName, type OperationSpec } from "../provider/catalog";

/** What the table states about one operation's records. */
export interface BindingEntry {
  /** Collection key of the simulator's state (also the key in `GET /_sim/state`). */
  readonly collection: string;
  /**
   * Path parameter name -> wire field of the stored record it must equal.
   * Example for op 5: `{ container_id: "container_id", id: "id" }`.
   */
  readonly match: Readonly<Record<string, string>>;
}

/**
 * How the engine carries out an operation: `one`: the path names one record (404 when absent);
 * `list`: every matching record in an envelope; `create`: POST appends a new record; `patch`: PATCH
 * merges the body into the matched record.
 */
export type StoreMode = "one" | "list" | "create" | "patch";

/** An operation's binding: its table entry and its mode. */
export interface StoreBinding extends BindingEntry {
  readonly mode: StoreMode;
}

/** Thrown when the bindings do not fit the catalog; the message names the operation and the rule. */
export class BindingError extends Error {
  override readonly name = "BindingError";
}

const COLLECTION_KEY = /^[a-z][a-zA-Z0-9]*$/;
const WIRE_FIELD = /^[a-z][a-z0-9_]*$/;

/** The mode of `op`, from what the catalog says of it. */
function modeOf(op: OperationSpec): StoreMode {
  if (op.method === "POST") return "create";
  if (op.method === "PATCH") return "patch";
  if (op.reads === undefined) throw new BindingError(`operation ${op.number} (${op.name}) is a read that says neither "one" nor "list"`);
  return op.reads;
}

/** Why `entry` does not fit `op` (empty when it does). */
function problemsOf(op: OperationSpec, entry: BindingEntry, mode: StoreMode): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, reason: string) => {
    if (!ok) problems.push(reason);
  };
  const params = Object.keys(entry.match);
  const fields = Object.values(entry.match);
  need(COLLECTION_KEY.test(entry.collection), "collection must be a camelCase key");
  need(
    params.length === op.pathParams.length && op.pathParams.every((p) => params.includes(p)),
    `match keys [${params.join(", ")}] must be the path params [${op.pathParams.join(", ")}]`,
  );
  need(
    fields.every((f) => WIRE_FIELD.test(f)),
    "match values must be wire field names",
  );
  need(new Set(fields).size === params.length, "match must not map two path params to one field");
  if (mode === "one" || mode === "patch") need(fields.includes("id"), `a "${mode}" operation must select the record by its id`);
  return problems;
}

/**
 * The binding of every operation of `operations`, from `entries` keyed by operation name; throws
 * `BindingError` listing every operation the table does not fit.
 */
export function defineBindings(
  operations: readonly OperationSpec[],
  entries: Readonly<Record<string, BindingEntry>>,
): ReadonlyMap<string, StoreBinding> {
  const problems: string[] = [];
  const bindings = new Map<string, StoreBinding>();
  for (const op of operations) {
    const entry = entries[op.name];
    if (entry === undefined) {
      problems.push(`operation ${op.number} (${op.name}) has no binding`);
      continue;
    }
    const mode = modeOf(op);
    const wrong = problemsOf(op, entry, mode);
    if (wrong.length > 0) problems.push(`operation ${op.number} (${op.name}): ${wrong.join("; ")}`);
    bindings.set(op.name, Object.freeze({ collection: entry.collection, match: Object.freeze({ ...entry.match }), mode }));
  }
  const known = new Set(operations.map((op) => op.name));
  for (const name of Object.keys(entries)) {
    if (!known.has(name)) problems.push(`"${name}" is bound but is no operation of the catalog`);
  }
  if (problems.length > 0) throw new BindingError(`the simulator's bindings do not fit the catalog: ${problems.join("; ")}`);
  return bindings;
}

/** The table: every operation of the catalog, by name (the type makes a missing one a compile error too). */
const ENTRIES: { readonly [N in OperationName]: BindingEntry } = {
  updateBidModifier: { collection: "bidModifiers", match: { id: "id" } },
  createCampaignGroup: { collection: "campaignGroups", match: {} },
  createBidStrategy: { collection: "bidStrategies", match: {} },
  updateAbTestVariation: { collection: "abTestVariations", match: { id: "ab_test_id", variation_id: "id" } },
  getContainerModal: { collection: "containerModals", match: { container_id: "container_id", id: "id" } },
  listContainerPrompts: { collection: "containerPrompts", match: { id: "container_id" } },
  getIntegration: { collection: "integrations", match: { id: "id" } },
  getCreative: { collection: "creatives", match: { id: "id" } },
  getPushTask: { collection: "pushTasks", match: { id: "id" } },
  getZonePlacement: { collection: "zonePlacements", match: { id: "zone_id", placement_id: "id" } },
  getProfileProperty: { collection: "profileProperties", match: { id: "id" } },
  getSearchAlgorithm: { collection: "searchAlgorithms", match: { id: "id" } },
  getZone: { collection: "zones", match: { id: "id" } },
  listMacros: { collection: "macros", match: {} },
  listExternalDemands: { collection: "externalDemands", match: {} },
  getMessagingProvider: { collection: "providers", match: { id: "id" } },
  listCountries: { collection: "countries", match: {} },
  listSegments: { collection: "segments", match: {} },
  getCampaignGroup: { collection: "campaignGroups", match: { id: "id" } },
  getContainerGroup: { collection: "containerGroups", match: { id: "container_id", gid: "id" } },
};

/** Every operation's binding, by operation name. */
export const BINDINGS = defineBindings(OPERATIONS, ENTRIES);

/** The binding of `op`; throws a RangeError for an operation not of the catalog. */
export function bindingOf(op: Pick<OperationSpec, "name">): StoreBinding {
  const binding = BINDINGS.get(op.name);
  if (!binding) throw new RangeError(`no simulator binding for operation "${op.name}"`);
  return binding;
}
