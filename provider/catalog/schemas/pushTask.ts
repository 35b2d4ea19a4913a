/** Push task (spec, Resources), the record of op 9. */
import { z } from "zod";
import { OpItems, Timestamp, WireId, wireObject, wireRecord } from "./common";

/** Push task targeting; `user_data` maps a data name (kept verbatim) to `{op, items}`. */
export const PushTaskTargeting = wireObject({
  countries: OpItems,
  apps: OpItems,
  remote_users: OpItems,
  user_data: z.record(z.string(), OpItems),
});

/** `adex` block of a push task; the nullable fields are those the spec marks nullable. */
export const PushTaskAdex = wireObject({
  zone_id: WireId,
  account_id: WireId.nullable(),
  campaign_id: z.array(WireId),
  group_id: WireId.nullable(),
  default_campaign_id: WireId.nullable(),
  number_of_messages: z.string(),
  repeat_on_click: z.string(),
});

/**
 * Push task record. spec: `end_time` and `last_execution_time` may be null; `frequency`,
 * `user_time_zone`, `quiet_time` and `message` are nullable and "types beyond null are not given",
 * so they are read as unknown JSON and kept verbatim.
 */
export const PushTask = wireRecord({
  name: z.string(),
  status: z.string(),
  start_time: Timestamp,
  end_time: Timestamp.nullable(),
  next_execution_time: Timestamp,
  last_execution_time: Timestamp.nullable(),
  create_time: Timestamp,
  frequency: z.unknown(),
  user_time_zone: z.unknown(),
  quiet_time: z.unknown(),
  message: z.unknown(),
  ttl: z.string(),
  targeting: PushTaskTargeting,
  adex: PushTaskAdex,
  creator_id: WireId,
  creator_name: z.string(),
});
/** Wire type of a push task. */
export type PushTask = z.output<typeof PushTask>;
