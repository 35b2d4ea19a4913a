/** Segment (spec, Resources), the record of op 18. */
import { z } from "zod";
import { CreateTime, Int, OpItems, wireObject, wireRecord } from "./common";

export const SegmentTargeting = wireObject({
  countries: OpItems.describe("Countries."),
  languages: OpItems.describe("Languages."),
  os: OpItems.describe("Operating systems."),
  browsers: OpItems.describe("Browsers."),
  apps: OpItems.describe("Apps."),
  users: OpItems.describe("Users."),
  groups: OpItems.describe("Groups."),
  regions: OpItems.describe("Regions."),
  remote_users: OpItems.describe("Remote users."),
  subscribed_age: wireObject({ from: Int.describe("From (integer)."), to: Int.describe("To (integer).") }).describe(
    "Age of the subscription.",
  ),
  user_data: z
    .record(z.string(), OpItems)
    .describe("Rules keyed by user-data name; the names are data and stay exactly as the platform sends them."),
}).describe("Who a segment matches; each rule's `op` is `eq` or `neq` (values seen).");

export const Segment = wireRecord(
  {
    name: z.string().describe("Name."),
    status: z.string().describe("Status, e.g. `inactive`."),
    create_time: CreateTime,
    targeting: SegmentTargeting.describe("Who it matches."),
  },
  "Segment id.",
).describe("An audience segment. Every field but `id` may be absent.");
