/** External demand (spec, Resources), the record of op 15. */
import { z } from "zod";
import { CompanyId, CreateTime, Int, StringFlag, WireId, wireObject, wireRecord } from "./common";

/** spec: the types of `value` and of a non-null `possible_values` are not given: kept verbatim. */
export const ExternalDemandSetting = wireObject({
  label: z.string().describe("Label."),
  type: z.string().describe("Type."),
  required: StringFlag.describe('Required, as a string flag (`"0"` / `"1"`).'),
  possible_values: z.unknown().describe("Allowed values, or null; kept as the platform sends them."),
  value: z.unknown().describe("Value, kept as the platform sends it."),
}).describe("One setting of an external demand.");

export const ExternalDemand = wireRecord(
  {
    company_id: CompanyId,
    partner_id: WireId.describe("Partner id."),
    name: z.string().describe("Name."),
    settings: z.array(ExternalDemandSetting).describe("Settings."),
    bid_regulator: Int.describe("Bid regulator (integer)."),
    status: z.string().describe("Status, e.g. `active`."),
    sync_status: StringFlag.describe("Sync status (string flag)."),
    ipv6_support: StringFlag.describe("IPv6 support (string flag)."),
    create_time: CreateTime,
    qps: z
      .record(z.string(), Int)
      .describe("Queries per second by region code; the codes are data and stay exactly as the platform sends them."),
  },
  "External demand id.",
).describe("An external demand partner. Every field but `id` may be absent.");
