/** Search algorithm (spec, Resources), the record of op 12. */
import { z } from "zod";
import { CompanyId, CreateTime, UpdateTime, wireRecord } from "./common";

/** Search algorithm record; `metadata` is a string-to-string map whose keys are data. */
export const SearchAlgorithm = wireRecord(
  {
    company_id: CompanyId,
    name: z.string().describe("Name."),
    description: z.string().describe("Description."),
    type: z.string().describe("Type, e.g. `custom`."),
    metadata: z
      .record(z.string(), z.string())
      .describe("Free-form string map; its keys are data and stay exactly as the platform sends them."),
    create_time: CreateTime,
    update_time: UpdateTime,
  },
  "Algorithm id.",
).describe("A search algorithm. Every field but `id` may be absent.");
/** Wire type of a search algorithm. */
export type SearchAlgorithm = z.output<typeof SearchAlgorithm>;
