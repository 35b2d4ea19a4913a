/** External demand (spec, Resources), the record of op 15. */
import { z } from "zod";
import { Int, StringFlag, Timestamp, WireId, wireObject, wireRecord } from "./common";

/**
 * One setting. spec: `possible_values` is nullable and its other type is not given, nor is the type
 * of `value`: both are read as unknown JSON and kept verbatim.
 */
export const ExternalDemandSetting = wireObject({
  label: z.string(),
  type: z.string(),
  required: StringFlag,
  possible_values: z.unknown(),
  value: z.unknown(),
});

/** External demand record; `qps` maps a region code (data, kept verbatim) to an integer. */
export const ExternalDemand = wireRecord({
  company_id: WireId,
  partner_id: WireId,
  name: z.string(),
  settings: z.array(ExternalDemandSetting),
  bid_regulator: Int,
  status: z.string(),
  sync_status: StringFlag,
  ipv6_support: StringFlag,
  create_time: Timestamp,
  qps: z.record(z.string(), Int),
});
/** Wire type of an external demand. */
export type ExternalDemand = z.output<typeof ExternalDemand>;
