/** Push task (spec, Resources), the record of op 9. */
import { z } from "zod";
import { OpItems, Timestamp, WireId, wireObject, wireRecord } from "./common";

export const PushTaskTargeting = wireObject({
  countries: OpItems.describe("Countries."),
  apps: OpItems.describe("Apps."),
  remote_users: OpItems.describe("Remote users."),
  user_data: z
    .record(z.string(), OpItems)
    .describe("Rules keyed by user-data name; the names are data and stay exactly as the platform sends them."),
}).describe("Who a push task targets.");

/** Nullable where the spec says so. */
export const PushTaskAdex = wireObject({
  zone_id: WireId.describe("Zone id."),
  account_id: WireId.nullable().describe("Account id, or null."),
  campaign_id: z.array(WireId).describe("Campaign ids."),
  group_id: WireId.nullable().describe("Group id, or null."),
  default_campaign_id: WireId.nullable().describe("Default campaign id, or null."),
  number_of_messages: z.string().describe("Number of messages (a string on the wire)."),
  repeat_on_click: z.string().describe("Repeat on click (a string on the wire)."),
}).describe("The ad-exchange part of a push task.");

/** spec: `frequency`, `user_time_zone`, `quiet_time` and `message`: "types beyond null are not given", so kept verbatim. */
export const PushTask = wireRecord(
  {
    name: z.string().describe("Name."),
    status: z.string().describe("Status, e.g. `1`."),
    start_time: Timestamp.describe("Start, `YYYY-MM-DD HH:MM:SS`."),
    end_time: Timestamp.nullable().describe("End, or null."),
    next_execution_time: Timestamp.describe("Next run."),
    last_execution_time: Timestamp.nullable().describe("Last run, or null."),
    create_time: Timestamp.describe("Created."),
    frequency: z.unknown().describe("Frequency, or null; kept as the platform sends it."),
    user_time_zone: z.unknown().describe("User time zone, or null; kept as the platform sends it."),
    quiet_time: z.unknown().describe("Quiet time, or null; kept as the platform sends it."),
    message: z.unknown().describe("Message, or null; kept as the platform sends it."),
    ttl: z.string().describe("Time to live."),
    targeting: PushTaskTargeting.describe("Who it targets."),
    adex: PushTaskAdex.describe("Ad-exchange settings."),
    creator_id: WireId.describe("Creator id."),
    creator_name: z.string().describe("Creator name."),
  },
  "Push task id.",
).describe("A push task. Every field but `id` may be absent.");
