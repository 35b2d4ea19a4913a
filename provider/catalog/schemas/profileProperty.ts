/** Profile property (spec, Resources), the record of op 11. */
import { z } from "zod";
import { IntFlag, Timestamp, WireId, wireRecord } from "./common";

/** Profile property record. */
export const ProfileProperty = wireRecord({
  company_id: WireId,
  target: z.string(),
  label: z.string(),
  data_type: z.string(),
  example: z.string(),
  description: z.string(),
  import_aliases: z.array(z.string()),
  export_alias: z.string(),
  pi_data: IntFlag,
  system: IntFlag,
  importable: IntFlag,
  exportable: IntFlag,
  create_time: Timestamp,
  update_time: Timestamp,
});
/** Wire type of a profile property. */
export type ProfileProperty = z.output<typeof ProfileProperty>;
