/**
 * The 20 operations of the spec's Endpoints table as one declarative table, checked by
 * `defineOperation` when this module loads. spec, rule 9: operations 5, 6, 8-15 and 17-20 accept query
 * parameters; 8 and 13 also take `fields` (cost: Limits 7).
 */
import type { z } from "zod";
import { defineCatalog, defineOperation, type OperationDefinition } from "./defineOperation";
import {
  AbTestVariationUpdate,
  BidModifierUpdate,
  BidStrategyCreate,
  BidStrategyCreated,
  CampaignGroup,
  CampaignGroupCreate,
  CampaignGroupCreated,
  ContainerGroup,
  ContainerModal,
  ContainerPrompt,
  Country,
  Creative,
  ExternalDemand,
  Integration,
  Macro,
  MessagingProvider,
  ProfileProperty,
  PushTask,
  SearchAlgorithm,
  Segment,
  Zone,
  ZonePlacement,
  envelope,
} from "./schemas";
import type { OperationSpec } from "./types";
import { AdPlatformError } from "../errors";

/** Every operation of the spec is in class C (spec, Limits 3). */
const C = "C" as const;

/**
 * A read: a GET answering 200 with its records in the envelope (spec, Conventions), taking query parameters unless it
 * says not. A `listX` reads a list, a `getX` one record.
 */
function read<
  const D extends Omit<OperationDefinition, "method" | "response" | "successStatus" | "rateClass" | "reads"> & { record: z.ZodType },
>(def: D) {
  const { acceptsQuery = true } = def;
  const reads = def.name.startsWith("list") ? "list" : "one";
  return defineOperation({ ...def, acceptsQuery, reads, method: "GET", response: envelope(def.record), successStatus: 200, rateClass: C });
}

/** A PATCH answers 204 with no body (spec, rule 1). */
function patch<const D extends Omit<OperationDefinition, "method" | "successStatus" | "rateClass">>(def: D) {
  return defineOperation({ ...def, method: "PATCH", successStatus: 204, rateClass: C });
}

/** A POST answers 201 with the object made (spec, Endpoints 2 and 3). */
function post<const D extends Omit<OperationDefinition, "method" | "successStatus" | "rateClass">>(def: D) {
  return defineOperation({ ...def, method: "POST", successStatus: 201, rateClass: C });
}

/** The catalog, in spec order (entry n is operation n). */
export const OPERATIONS = defineCatalog([
  patch({ number: 1, name: "updateBidModifier", path: "/v2/adex/bid-modifiers/{id}", request: BidModifierUpdate }),
  post({ number: 2, name: "createCampaignGroup", path: "/v2/adex/groups", request: CampaignGroupCreate, response: CampaignGroupCreated }),
  post({ number: 3, name: "createBidStrategy", path: "/v2/adex/bid-strategies", request: BidStrategyCreate, response: BidStrategyCreated }),
  patch({
    number: 4,
    name: "updateAbTestVariation",
    path: "/v2/adex/campaign-ab-tests/{id}/variations/{variation_id}",
    request: AbTestVariationUpdate,
  }),
  read({ number: 5, name: "getContainerModal", path: "/v1/hood/containers/{container_id}/modals/{id}", record: ContainerModal }),
  read({ number: 6, name: "listContainerPrompts", path: "/v1/hood/containers/{id}/prompts", record: ContainerPrompt }),
  read({
    number: 7,
    name: "getIntegration",
    path: "/v2/platform/event-system/integrations/{id}",
    record: Integration,
    acceptsQuery: false,
  }),
  read({ number: 8, name: "getCreative", path: "/api/v1/adex/creatives/{id}", record: Creative, acceptsFields: true }),
  read({ number: 9, name: "getPushTask", path: "/v1/hood/push-tasks/{id}", record: PushTask }),
  read({ number: 10, name: "getZonePlacement", path: "/v2/adex/zones/{id}/placements/{placement_id}", record: ZonePlacement }),
  read({ number: 11, name: "getProfileProperty", path: "/v1/hood/profile-properties/{id}", record: ProfileProperty }),
  read({ number: 12, name: "getSearchAlgorithm", path: "/v2/adex/search-algos/{id}", record: SearchAlgorithm }),
  read({ number: 13, name: "getZone", path: "/v2/adex/zones/{id}", record: Zone, acceptsFields: true }),
  read({ number: 14, name: "listMacros", path: "/v1/hood/macros", record: Macro }),
  read({ number: 15, name: "listExternalDemands", path: "/v2/adex/external-demands", record: ExternalDemand }),
  read({ number: 16, name: "getMessagingProvider", path: "/v1/hood/providers/{id}", record: MessagingProvider, acceptsQuery: false }),
  read({ number: 17, name: "listCountries", path: "/v2/platform/countries", record: Country }),
  read({ number: 18, name: "listSegments", path: "/v1/hood/segments", record: Segment }),
  read({ number: 19, name: "getCampaignGroup", path: "/v2/adex/groups/{id}", record: CampaignGroup }),
  read({ number: 20, name: "getContainerGroup", path: "/v1/hood/containers/{id}/groups/{gid}", record: ContainerGroup }),
] as const);

/** One operation of the catalog, with its literal name and exact schema types. */
export type Operation = (typeof OPERATIONS)[number];
export type OperationName = Operation["name"];
export type OperationNamed<N extends OperationName> = Extract<Operation, { name: N }>;
/** The operations that create an object. */
export type PostOperationName = { [N in OperationName]: OperationNamed<N>["method"] extends "POST" ? N : never }[OperationName];

const BY_NAME: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map((op) => [op.name, op]));

/** Operation `n` of the spec's Endpoints table; `ADP_ERR_UNSUPPORTED` for an unknown number. */
export function operationByNumber(n: number): Operation {
  const op = Number.isInteger(n) ? OPERATIONS[n - 1] : undefined;
  if (!op) throw new AdPlatformError("ADP_ERR_UNSUPPORTED", `no operation number ${n}: the catalog has 1..${OPERATIONS.length}`);
  return op;
}

/** `ADP_ERR_UNSUPPORTED` for an unknown name. */
export function operationByName<N extends OperationName>(name: N): OperationNamed<N> {
  const op = BY_NAME.get(name);
  if (!op) throw new AdPlatformError("ADP_ERR_UNSUPPORTED", `no operation named "${name}"`);
  return op as OperationNamed<N>;
}

/** How a message names an operation: as the platform documents it (`PATCH /v2/adex/bid-modifiers/{id}`), not by our number. */
export function requestLine(name: OperationName): string {
  const op = operationByName(name);
  return `${op.method} ${op.path}`;
}

/** Why `value` cannot fill path parameter `param`, or undefined. */
function valueRefusal(param: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return `missing path parameter "${param}"`;
  if (typeof value !== "string") return `path parameter "${param}" must be a string, got ${typeof value}`;
  if (value === "") return `path parameter "${param}" must not be empty`;
  if (value === "." || value === "..") return `path parameter "${param}" must not be "${value}" (URL normalisation would change the path)`;
  if (value.length > MAX_PATH_PARAM_LENGTH) return `path parameter "${param}" is longer than ${MAX_PATH_PARAM_LENGTH} characters`;
  return undefined;
}

/** What `buildPath` would refuse (the parameter, and why): every template parameter must be given, and no other. */
export function pathParamProblem(
  op: Pick<OperationSpec, "pathParams">,
  params: Readonly<Record<string, unknown>> = {},
): { readonly param: string; readonly reason: string } | undefined {
  const unknown = Object.keys(params).find((key) => !op.pathParams.includes(key));
  if (unknown !== undefined) return { param: unknown, reason: `unknown path parameter "${unknown}" (expects ${describeParams(op)})` };
  for (const param of op.pathParams) {
    const reason = valueRefusal(param, params[param]);
    if (reason !== undefined) return { param, reason };
  }
  return undefined;
}

/** Fills a path template, refusing what `pathParamProblem` names; `a/b`, `?`, `#` and spaces stay inside their segment. */
export function buildPath(op: Pick<OperationSpec, "name" | "path" | "pathParams">, params: Readonly<Record<string, string>> = {}): string {
  const problem = pathParamProblem(op, params);
  if (problem !== undefined) throw new AdPlatformError("ADP_ERR_REQUEST_INVALID", { subject: op.name, reason: problem.reason });
  return op.path.replace(/\{([a-z][a-z0-9_]*)\}/g, (_m, name: string) => encodeURIComponent(params[name]));
}

/**
 * Decision (not shown in spec, Limits 8): a path parameter is at most 1024 characters. No id comes near
 * it; a longer one would only be refused by the server's request-line limit after being sent.
 */
export const MAX_PATH_PARAM_LENGTH = 1024;

function describeParams(op: Pick<OperationSpec, "pathParams">): string {
  return op.pathParams.length === 0 ? "none" : op.pathParams.map((p) => `"${p}"`).join(", ");
}
