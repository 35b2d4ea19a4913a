/**
 * One valid call per catalog operation against the seeded data, keyed by operation name. The
 * contract test fails when an operation has no sample, so a new catalog entry needs one here.
 */
import { buildPath, type OperationSpec } from "../../provider/catalog";
import { SEED_IDS } from "../../simulator";

/** Path parameters, body and query of one sample call. */
export interface Sample {
  params: Record<string, string>;
  body?: unknown;
  query?: string;
}

const S = SEED_IDS;

export const SAMPLES: Readonly<Record<string, Sample>> = {
  updateBidModifier: { params: { id: S.bidModifiers.countries }, body: { name: "DACH uplift v2" } },
  createCampaignGroup: { params: {}, body: { name: "Autumn", color: "#112233", items: ["5001", "5002"] } },
  createBidStrategy: {
    params: {},
    body: { name: "Sub five", pricing_model: "cpc", strategy: "price_sub", value: 0.05, max_value: 1 },
  },
  updateAbTestVariation: {
    params: { id: S.abTests.homepage, variation_id: S.abTestVariations.homepageVariant },
    body: { settings: { image: { en: "https://cdn.example.com/new-en.png" } } },
  },
  getContainerModal: { params: { container_id: S.containers.main, id: S.containerModals.welcome } },
  listContainerPrompts: { params: { id: S.containers.main } },
  getIntegration: { params: { id: S.integrations.mailer } },
  getCreative: { params: { id: S.creatives.nativeShoes } },
  getPushTask: { params: { id: S.pushTasks.weeklyDigest } },
  getZonePlacement: { params: { id: S.zones.display, placement_id: S.zonePlacements.topBanner } },
  getProfileProperty: { params: { id: S.profileProperties.firstName } },
  getSearchAlgorithm: { params: { id: S.searchAlgorithms.weighted } },
  getZone: { params: { id: S.zones.display } },
  listMacros: { params: {} },
  listExternalDemands: { params: {} },
  getMessagingProvider: { params: { id: S.providers.sms } },
  listCountries: { params: {} },
  listSegments: { params: {} },
  getCampaignGroup: { params: { id: S.campaignGroups.summer } },
  getContainerGroup: { params: { id: S.containers.main, gid: S.containerGroups.onboarding } },
};

/** The sample of `op` as a path (with query). */
export function samplePath(op: OperationSpec): string {
  const sample = SAMPLES[op.name];
  if (!sample) throw new Error(`no sample call for ${op.name}`);
  return buildPath(op, sample.params) + (sample.query ? `?${sample.query}` : "");
}
