/** Search algorithm (spec, Resources), the record of op 12. */
import { z } from "zod";
import { CompanyId, CreateTime, UpdateTime, wireRecord } from "./common";

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
