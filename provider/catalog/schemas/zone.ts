/** Zone (op 13) and zone placement (op 10) (spec, Resources). */
import { z } from "zod";
import { CompanyId, CreateTime, EmbeddedAccount, Int, IntFlag, UpdateTime, WireId, wireObject, wireRecord } from "./common";

export const ZoneListTargeting = wireObject({
  items: z.array(z.string()).describe("Values; for `ip`, IPv4 or IPv6 addresses or CIDR ranges."),
  lists: z.array(WireId).describe("Ids of saved lists."),
  op: z.string().describe("`in` or `nin` (values seen)."),
}).describe("A zone targeting dimension with items and list ids: `countries`, `regions`, `subids`, `ip`, `pages`.");

export const ZoneCategoryTargeting = wireObject({
  items: z.array(z.array(z.string())).describe("Category paths."),
  lists: z.array(WireId).describe("Ids of saved lists."),
  op: z.string().describe("`in` or `nin` (values seen)."),
}).describe("Zone `categories` targeting: each item is a path of category strings.");

export const ZoneSimpleTargeting = wireObject({
  items: z.array(z.string()).describe("Values; for `time`, schedule expressions in bracket form."),
  op: z.string().describe("`in` or `nin` (values seen)."),
}).describe("A zone targeting dimension with plain items: `tags`, `containers`, `deviceTypes`, `time`, ...");

export const ZoneVersionedTargeting = wireObject({
  items: z
    .array(
      wireObject({
        id: z.string().describe("Operating system or browser id."),
        op: z.string().describe("`in` or `nin` (values seen)."),
        versions: z.array(z.string()).describe("Versions it applies to."),
      }),
    )
    .describe("One entry per operating system or browser."),
}).describe("Zone `os` / `browsers` targeting.");

/** Every key the spec lists ("Zone targeting keys"). */
export const ZoneTargeting = wireObject({
  countries: ZoneListTargeting.describe("Countries."),
  regions: ZoneListTargeting.describe("Regions."),
  subids: ZoneListTargeting.describe("Sub-ids."),
  ip: ZoneListTargeting.describe("IP addresses or CIDR ranges, IPv4 or IPv6."),
  pages: ZoneListTargeting.describe("Pages."),
  categories: ZoneCategoryTargeting.describe("Categories."),
  tags: ZoneSimpleTargeting.describe("Tags."),
  containers: ZoneSimpleTargeting.describe("Containers."),
  device_types: ZoneSimpleTargeting.describe("Device types."),
  device_manufacturers: ZoneSimpleTargeting.describe("Device manufacturers."),
  connections: ZoneSimpleTargeting.describe("Connection types."),
  time: ZoneSimpleTargeting.describe("Schedule, as bracket-form expressions."),
  languages: ZoneSimpleTargeting.describe("Languages."),
  os: ZoneVersionedTargeting.describe("Operating systems and versions."),
  browsers: ZoneVersionedTargeting.describe("Browsers and versions."),
  device_tracking: IntFlag.describe("Device tracking (integer flag)."),
  has_user_data: IntFlag.describe("Only users with user data (integer flag)."),
}).describe("Zone targeting.");

/** spec, rule 6: `widgets` only for zones of type `widget`, `user_cache` only for type `push`. */
export const Zone = wireRecord(
  {
    company_id: CompanyId,
    account_id: WireId.describe("Account id."),
    creator_id: WireId.describe("Creator id."),
    track_id: WireId.describe("Tracking id."),
    tag: z.string().describe("Tag."),
    name: z.string().describe("Name."),
    description: z.string().describe("Description."),
    account: EmbeddedAccount.describe('The account, when asked for with `fields: ["account"]`.'),
    creator: EmbeddedAccount.describe('The creator, when asked for with `fields: ["creator"]`.'),
    status: z.string().describe("Status, e.g. `active`."),
    // spec, rule 5.
    type: z.string().describe("Zone type: `rtb`, `widget`, `push` or `display`. Placements exist only on `display` zones."),
    pricing_model: z.string().describe("Pricing model, e.g. `cpc`."),
    campaign_priority: z.string().describe("Campaign priority, e.g. `compete`."),
    campaign_search_algo: z.string().describe("Campaign search algorithm, e.g. `round-robin`."),
    distribution: Int.describe("Distribution (integer)."),
    algo_distribution: wireObject({
      id: Int.describe("Algorithm id (integer)."),
      rate: Int.describe("Rate (integer)."),
      status: z.string().describe("Status."),
    }).describe("Algorithm distribution."),
    search_algo_expl_rate: Int.describe("Search algorithm exploration rate (integer)."),
    external_expl_rate: Int.describe("External exploration rate (integer)."),
    response_timeout: Int.describe("Response timeout (integer)."),
    revenue_share: Int.describe("Revenue share (integer)."),
    cpv_viewability: Int.describe("CPV viewability (integer)."),
    bid_floor: z.number().describe("Bid floor."),
    bid_omit: IntFlag.describe("Bid omit (integer flag)."),
    subid_hash: wireObject({ key: z.string().describe("Hash key."), enabled: IntFlag.describe("Enabled (integer flag).") }).describe(
      "Sub-id hashing.",
    ),
    user_cache: IntFlag.describe("User cache (integer flag); only on zones of type `push`."),
    widgets: z.array(WireId).describe("Widget ids; only on zones of type `widget`."),
    targeting: ZoneTargeting.describe("Targeting."),
    filters: wireObject({
      policy: z.string().describe("Policy, e.g. `block`."),
      ip_match: Int.describe("IP match (integer)."),
      max_click_delay: Int.describe("Maximum click delay (integer)."),
      min_click_delay: Int.describe("Minimum click delay (integer)."),
    }).describe("Traffic filters."),
    seat: wireObject({
      type: z.string().describe("Seat type, e.g. `account`."),
      items: z.string().describe("Comma-separated ids."),
      priority: Int.describe("Priority (integer)."),
    }).describe("Seat."),
    stats: wireObject({
      request: Int.describe("Requests."),
      fill: Int.describe("Fills."),
      impression: Int.describe("Impressions."),
      click: Int.describe("Clicks."),
      spam_click: Int.describe("Spam clicks."),
      conversion: Int.describe("Conversions."),
    }).describe("Counters (integers)."),
    create_time: CreateTime,
    update_time: UpdateTime,
  },
  "Zone id.",
).describe("A zone. Every field but `id` may be absent.");

/** Placements exist only on display zones (spec, rule 5). */
export const ZonePlacement = wireRecord(
  {
    company_id: CompanyId,
    zone_id: WireId.describe("Zone id."),
    track_id: WireId.describe("Tracking id."),
    tag: z.string().describe("Embed markup."),
    name: z.string().describe("Name."),
    description: z.string().describe("Description."),
    layouts: z.array(z.array(z.string())).describe("Layouts: rows of layout names."),
    unit_size: z.array(z.string()).describe("Unit sizes, `<width>x<height>`."),
    conf: wireObject({
      wrap: z.string().describe("Wrapper."),
      js_code_exec: Int.describe("JavaScript code execution (integer)."),
    }).describe("Configuration."),
    create_time: CreateTime,
    update_time: UpdateTime,
  },
  "Placement id, a position name.",
).describe("A zone placement. Every field but `id` may be absent.");
