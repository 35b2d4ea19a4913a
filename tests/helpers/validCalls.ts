/**
 * One valid call per catalog operation against the simulator's seeded data, keyed by operation
 * name, in the client's request shape (path parameters, wire body). The table must name every
 * operation (`satisfies Record<OperationName, ...>`), so a new catalog entry without a call here
 * does not compile.
 *
 * Its users: the simulator contract sends each call as raw HTTP (`validCallPath`), the client suite
 * round-trips each through `ApiClient.call`, the bad-input suite reads each data source with the
 * arguments of its operation's call (`validArguments`).
 */
import { buildPath, type OperationName, type OperationSpec } from "../../provider/catalog";
import type { CallRequest } from "../../provider/client";
import type { DataSource } from "../../provider/dataSources";
import { SEED_IDS as S } from "../../simulator";

export const VALID_CALLS = {
  updateBidModifier: { pathParams: { id: S.bidModifiers.countries }, body: { name: "DACH uplift v2" } },
  createCampaignGroup: { body: { name: "Autumn", color: "#112233", items: ["5001", "5002"] } },
  createBidStrategy: {
    body: { name: "Sub five", pricing_model: "cpc", strategy: "price_sub", value: 0.05, max_value: 1 },
  },
  updateAbTestVariation: {
    pathParams: { id: S.abTests.homepage, variation_id: S.abTestVariations.homepageVariant },
    body: { settings: { image: { en: "https://cdn.example.com/new-en.png" } } },
  },
  getContainerModal: { pathParams: { container_id: S.containers.main, id: S.containerModals.welcome } },
  listContainerPrompts: { pathParams: { id: S.containers.main } },
  getIntegration: { pathParams: { id: S.integrations.mailer } },
  getCreative: { pathParams: { id: S.creatives.nativeShoes } },
  getPushTask: { pathParams: { id: S.pushTasks.weeklyDigest } },
  getZonePlacement: { pathParams: { id: S.zones.display, placement_id: S.zonePlacements.topBanner } },
  getProfileProperty: { pathParams: { id: S.profileProperties.firstName } },
  getSearchAlgorithm: { pathParams: { id: S.searchAlgorithms.weighted } },
  getZone: { pathParams: { id: S.zones.display } },
  listMacros: {},
  listExternalDemands: {},
  getMessagingProvider: { pathParams: { id: S.providers.sms } },
  listCountries: {},
  listSegments: {},
  getCampaignGroup: { pathParams: { id: S.campaignGroups.summer } },
  getContainerGroup: { pathParams: { id: S.containers.main, gid: S.containerGroups.onboarding } },
} satisfies Record<OperationName, CallRequest>;

/** The valid call of `op`. */
export function validCall(op: OperationSpec | OperationName): CallRequest {
  const name = (typeof op === "string" ? op : op.name) as OperationName;
  const call: CallRequest | undefined = VALID_CALLS[name];
  if (!call) throw new Error(`no valid call for operation ${name}`);
  return call;
}

/** The valid call of `op` as the path a raw HTTP request sends, query included. */
export function validCallPath(op: OperationSpec): string {
  const call = validCall(op);
  const query = new URLSearchParams(call.query);
  if (call.fields?.length) query.set("fields", call.fields.join(","));
  const search = query.toString();
  return buildPath(op, call.pathParams ?? {}) + (search ? `?${search}` : "");
}

/** The SDK arguments of a data source that make its operation's valid call (`{ zoneId, id }`). */
export function validArguments(source: DataSource): Record<string, string> {
  const params = validCall(source.operation).pathParams ?? {};
  return Object.fromEntries(Object.entries(source.pathArgs).map(([arg, param]) => [arg, params[param]!]));
}
