/** Macro (spec, Resources), the record of op 14. */
import { z } from "zod";
import { Int, IntFlag, Timestamp, WireId, wireObject, wireRecord } from "./common";

/**
 * One macro record; nested, so its `id` may be absent. `fields` maps a field name (data, kept
 * verbatim) to a string.
 */
export const MacroRecord = wireObject({
  id: WireId,
  fields: z.record(z.string(), z.string()),
  value: z.string(),
});

/** Macro record. `deprecated` is a deprecated-marker flag (spec, Versioning). */
export const Macro = wireRecord({
  company_id: WireId,
  name: z.string(),
  description: z.string(),
  deprecated: IntFlag,
  type: z.string(),
  value: z.string(),
  fields: z.array(z.string()),
  records: z.array(MacroRecord),
  size: Int,
  create_time: Timestamp,
  update_time: Timestamp,
});
/** Wire type of a macro. */
export type Macro = z.output<typeof Macro>;
