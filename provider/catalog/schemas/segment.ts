/** Segment (spec, Resources), the record of op 18. */
import { z } from "zod";
import { Int, OpItems, Timestamp, wireObject, wireRecord } from "./common";

/**
 * Segment targeting: each listed key is `{op, items}`; `subscribed_age` is `{from, to}`; `user_data`
 * maps a data name (kept verbatim) to `{op, items}`.
 */
export const SegmentTargeting = wireObject({
  countries: OpItems,
  languages: OpItems,
  os: OpItems,
  browsers: OpItems,
  apps: OpItems,
  users: OpItems,
  groups: OpItems,
  regions: OpItems,
  remote_users: OpItems,
  subscribed_age: wireObject({ from: Int, to: Int }),
  user_data: z.record(z.string(), OpItems),
});
/** Wire type of segment targeting. */
export type SegmentTargeting = z.output<typeof SegmentTargeting>;

/** Segment record. */
export const Segment = wireRecord({
  name: z.string(),
  status: z.string(),
  create_time: Timestamp,
  targeting: SegmentTargeting,
});
/** Wire type of a segment. */
export type Segment = z.output<typeof Segment>;
