/** Search algorithm (spec, Resources), the record of op 12. */
import { z } from "zod";
import { Timestamp, WireId, wireRecord } from "./common";

/** Search algorithm record; `metadata` is a string-to-string map whose keys are data. */
export const SearchAlgorithm = wireRecord({
  company_id: WireId,
  name: z.string(),
  description: z.string(),
  type: z.string(),
  metadata: z.record(z.string(), z.string()),
  create_time: Timestamp,
  update_time: Timestamp,
});
/** Wire type of a search algorithm. */
export type SearchAlgorithm = z.output<typeof SearchAlgorithm>;
