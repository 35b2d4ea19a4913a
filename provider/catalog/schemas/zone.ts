/** Zone (op 13) and zone placement (op 10) (spec, Resources). */
import { z } from "zod";
import { EmbeddedAccount, Int, IntFlag, Timestamp, WireId, wireObject, wireRecord } from "./common";

/** `countries`, `regions`, `subids`, `ip`, `pages`: {items, lists (list ids), op}. */
export const ZoneListTargeting = wireObject({
  items: z.array(z.string()),
  lists: z.array(WireId),
  op: z.string(),
});

/** `categories`: items are arrays of category strings. */
export const ZoneCategoryTargeting = wireObject({
  items: z.array(z.array(z.string())),
  lists: z.array(WireId),
  op: z.string(),
});

/** `tags`, `containers`, `device_types`, ...: {items, op}. */
export const ZoneSimpleTargeting = wireObject({ items: z.array(z.string()), op: z.string() });

/** `os`, `browsers`: items are {id, op, versions}. */
export const ZoneVersionedTargeting = wireObject({
  items: z.array(wireObject({ id: z.string(), op: z.string(), versions: z.array(z.string()) })),
});

/** Zone targeting: every key the spec lists ("Zone targeting keys"). */
export const ZoneTargeting = wireObject({
  countries: ZoneListTargeting,
  regions: ZoneListTargeting,
  subids: ZoneListTargeting,
  ip: ZoneListTargeting,
  pages: ZoneListTargeting,
  categories: ZoneCategoryTargeting,
  tags: ZoneSimpleTargeting,
  containers: ZoneSimpleTargeting,
  device_types: ZoneSimpleTargeting,
  device_manufacturers: ZoneSimpleTargeting,
  connections: ZoneSimpleTargeting,
  time: ZoneSimpleTargeting,
  languages: ZoneSimpleTargeting,
  os: ZoneVersionedTargeting,
  browsers: ZoneVersionedTargeting,
  device_tracking: IntFlag,
  has_user_data: IntFlag,
});
/** Wire type of zone targeting. */
export type ZoneTargeting = z.output<typeof ZoneTargeting>;

/**
 * Zone record. spec, rule 6: `widgets` only for zones of type `widget`, `user_cache` only for type
 * `push` (both optional, as every non-id field is).
 */
export const Zone = wireRecord({
  company_id: WireId,
  account_id: WireId,
  creator_id: WireId,
  track_id: WireId,
  tag: z.string(),
  name: z.string(),
  description: z.string(),
  account: EmbeddedAccount,
  creator: EmbeddedAccount,
  status: z.string(),
  type: z.string(),
  pricing_model: z.string(),
  campaign_priority: z.string(),
  campaign_search_algo: z.string(),
  distribution: Int,
  algo_distribution: wireObject({ id: Int, rate: Int, status: z.string() }),
  search_algo_expl_rate: Int,
  external_expl_rate: Int,
  response_timeout: Int,
  revenue_share: Int,
  cpv_viewability: Int,
  bid_floor: z.number(),
  bid_omit: IntFlag,
  subid_hash: wireObject({ key: z.string(), enabled: IntFlag }),
  user_cache: IntFlag,
  widgets: z.array(WireId),
  targeting: ZoneTargeting,
  filters: wireObject({
    policy: z.string(),
    ip_match: Int,
    max_click_delay: Int,
    min_click_delay: Int,
  }),
  seat: wireObject({ type: z.string(), items: z.string(), priority: Int }),
  stats: wireObject({
    request: Int,
    fill: Int,
    impression: Int,
    click: Int,
    spam_click: Int,
    conversion: Int,
  }),
  create_time: Timestamp,
  update_time: Timestamp,
});
/** Wire type of a zone. */
export type Zone = z.output<typeof Zone>;

/** Zone placement record (spec: placements exist only on display zones, rule 5). */
export const ZonePlacement = wireRecord({
  company_id: WireId,
  zone_id: WireId,
  track_id: WireId,
  tag: z.string(),
  name: z.string(),
  description: z.string(),
  layouts: z.array(z.array(z.string())),
  unit_size: z.array(z.string()),
  conf: wireObject({ wrap: z.string(), js_code_exec: Int }),
  create_time: Timestamp,
  update_time: Timestamp,
});
/** Wire type of a zone placement. */
export type ZonePlacement = z.output<typeof ZonePlacement>;
