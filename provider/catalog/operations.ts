/**
 * The operation catalog: the 20 operations of the spec's Endpoints table as one declarative table.
 * The HTTP client, the data sources, the simulator's router and the contract tests all read it.
 * `defineOperation` checks each entry when this module loads.
 *
 * Common to every entry (spec, Limits 3): rate class C. spec, rule 9: operations 5, 6, 8-15 and
 * 17-20 accept query parameters; 8 and 13 also take `fields` (cost: Limits 7).
 */
import { defineCatalog, defineOperation } from "./defineOperation";
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

/** The catalog, in spec order (entry n is operation n). */
export const OPERATIONS = defineCatalog([
  defineOperation({
    number: 1,
    name: "updateBidModifier",
    method: "PATCH",
    path: "/v2/adex/bid-modifiers/{id}",
    request: BidModifierUpdate,
    successStatus: 204,
    rateClass: C,
  }),
  defineOperation({
    number: 2,
    name: "createCampaignGroup",
    method: "POST",
    path: "/v2/adex/groups",
    request: CampaignGroupCreate,
    response: CampaignGroupCreated,
    successStatus: 201,
    rateClass: C,
  }),
  defineOperation({
    number: 3,
    name: "createBidStrategy",
    method: "POST",
    path: "/v2/adex/bid-strategies",
    request: BidStrategyCreate,
    response: BidStrategyCreated,
    successStatus: 201,
    rateClass: C,
  }),
  defineOperation({
    number: 4,
    name: "updateAbTestVariation",
    method: "PATCH",
    path: "/v2/adex/campaign-ab-tests/{id}/variations/{variation_id}",
    request: AbTestVariationUpdate,
    successStatus: 204,
    rateClass: C,
  }),
  defineOperation({
    number: 5,
    name: "getContainerModal",
    method: "GET",
    path: "/v1/hood/containers/{container_id}/modals/{id}",
    record: ContainerModal,
    response: envelope(ContainerModal),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "one",
  }),
  defineOperation({
    number: 6,
    name: "listContainerPrompts",
    method: "GET",
    path: "/v1/hood/containers/{id}/prompts",
    record: ContainerPrompt,
    response: envelope(ContainerPrompt),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "list",
  }),
  defineOperation({
    number: 7,
    name: "getIntegration",
    method: "GET",
    path: "/v2/platform/event-system/integrations/{id}",
    record: Integration,
    response: envelope(Integration),
    successStatus: 200,
    rateClass: C,
    reads: "one",
  }),
  defineOperation({
    number: 8,
    name: "getCreative",
    method: "GET",
    path: "/api/v1/adex/creatives/{id}",
    record: Creative,
    response: envelope(Creative),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    acceptsFields: true,
    reads: "one",
  }),
  defineOperation({
    number: 9,
    name: "getPushTask",
    method: "GET",
    path: "/v1/hood/push-tasks/{id}",
    record: PushTask,
    response: envelope(PushTask),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "one",
  }),
  defineOperation({
    number: 10,
    name: "getZonePlacement",
    method: "GET",
    path: "/v2/adex/zones/{id}/placements/{placement_id}",
    record: ZonePlacement,
    response: envelope(ZonePlacement),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "one",
  }),
  defineOperation({
    number: 11,
    name: "getProfileProperty",
    method: "GET",
    path: "/v1/hood/profile-properties/{id}",
    record: ProfileProperty,
    response: envelope(ProfileProperty),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "one",
  }),
  defineOperation({
    number: 12,
    name: "getSearchAlgorithm",
    method: "GET",
    path: "/v2/adex/search-algos/{id}",
    record: SearchAlgorithm,
    response: envelope(SearchAlgorithm),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "one",
  }),
  defineOperation({
    number: 13,
    name: "getZone",
    method: "GET",
    path: "/v2/adex/zones/{id}",
    record: Zone,
    response: envelope(Zone),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    acceptsFields: true,
    reads: "one",
  }),
  defineOperation({
    number: 14,
    name: "listMacros",
    method: "GET",
    path: "/v1/hood/macros",
    record: Macro,
    response: envelope(Macro),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "list",
  }),
  defineOperation({
    number: 15,
    name: "listExternalDemands",
    method: "GET",
    path: "/v2/adex/external-demands",
    record: ExternalDemand,
    response: envelope(ExternalDemand),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "list",
  }),
  defineOperation({
    number: 16,
    name: "getMessagingProvider",
    method: "GET",
    path: "/v1/hood/providers/{id}",
    record: MessagingProvider,
    response: envelope(MessagingProvider),
    successStatus: 200,
    rateClass: C,
    reads: "one",
  }),
  defineOperation({
    number: 17,
    name: "listCountries",
    method: "GET",
    path: "/v2/platform/countries",
    record: Country,
    response: envelope(Country),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "list",
  }),
  defineOperation({
    number: 18,
    name: "listSegments",
    method: "GET",
    path: "/v1/hood/segments",
    record: Segment,
    response: envelope(Segment),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "list",
  }),
  defineOperation({
    number: 19,
    name: "getCampaignGroup",
    method: "GET",
    path: "/v2/adex/groups/{id}",
    record: CampaignGroup,
    response: envelope(CampaignGroup),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "one",
  }),
  defineOperation({
    number: 20,
    name: "getContainerGroup",
    method: "GET",
    path: "/v1/hood/containers/{id}/groups/{gid}",
    record: ContainerGroup,
    response: envelope(ContainerGroup),
    successStatus: 200,
    rateClass: C,
    acceptsQuery: true,
    reads: "one",
  }),
] as const);

/** One operation of the catalog, with its literal name and exact schema types. */
export type Operation = (typeof OPERATIONS)[number];
/** Name of an operation of the catalog (`"getZone"`, `"updateBidModifier"`, ...). */
export type OperationName = Operation["name"];
/** The operation with name `N`. */
export type OperationNamed<N extends OperationName> = Extract<Operation, { name: N }>;
/** The names of the operations sent by POST (the ones that create an object). */
export type PostOperationName = { [N in OperationName]: OperationNamed<N>["method"] extends "POST" ? N : never }[OperationName];

const BY_NAME: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map((op) => [op.name, op]));

/** Operation `n` of the spec's Endpoints table; throws `ADP_ERR_UNSUPPORTED` for an unknown number. */
export function operationByNumber(n: number): Operation {
  const op = Number.isInteger(n) ? OPERATIONS[n - 1] : undefined;
  if (!op) throw new AdPlatformError("ADP_ERR_UNSUPPORTED", `no operation number ${n}: the catalog has 1..${OPERATIONS.length}`);
  return op;
}

/** The operation named `name`; throws `ADP_ERR_UNSUPPORTED` for an unknown name. */
export function operationByName<N extends OperationName>(name: N): OperationNamed<N> {
  const op = BY_NAME.get(name);
  if (!op) throw new AdPlatformError("ADP_ERR_UNSUPPORTED", `no operation named "${name}"`);
  return op as OperationNamed<N>;
}

/**
 * How a message names operation `name` to users: its method and path as the platform documents them
 * (`PATCH /v2/adex/bid-modifiers/{id}`), not its number in our catalog.
 */
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

/**
 * What `buildPath` would refuse in `params` (the parameter, and why), or undefined. Every parameter
 * of the template must be given and non-empty, and no other may be given (a typo must not pass
 * silently); `.` and `..` are refused because URL normalisation would turn them into another path.
 */
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

/**
 * Fills a path template with encoded path parameters, refusing what `pathParamProblem` names.
 * Values are encoded with `encodeURIComponent`, so `a/b`, `?`, `#` and spaces stay inside their segment.
 */
export function buildPath(op: Pick<OperationSpec, "name" | "path" | "pathParams">, params: Readonly<Record<string, string>> = {}): string {
  const problem = pathParamProblem(op, params);
  if (problem !== undefined) throw new AdPlatformError("ADP_ERR_REQUEST_INVALID", { subject: op.name, reason: problem.reason });
  return op.path.replace(/\{([a-z][a-z0-9_]*)\}/g, (_m, name: string) => encodeURIComponent(params[name]));
}

/**
 * Decision (not shown in spec, Limits 8): a path parameter is at most 1024 characters. No id of the
 * platform comes near it, and a longer one would only be refused by the server's request-line limit
 * after being sent (node's default is 16 KiB for the whole header block).
 */
export const MAX_PATH_PARAM_LENGTH = 1024;

function describeParams(op: Pick<OperationSpec, "pathParams">): string {
  return op.pathParams.length === 0 ? "none" : op.pathParams.map((p) => `"${p}"`).join(", ");
}
