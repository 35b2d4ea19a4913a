/** Macro (spec, Resources), the record of op 14. */
import { z } from "zod";
import { CompanyId, CreateTime, Int, IntFlag, UpdateTime, WireId, wireObject, wireRecord } from "./common";

export const MacroRecord = wireObject({
  id: WireId.describe("Record id; a nested record may come without one."),
  fields: z
    .record(z.string(), z.string())
    .describe("Field name -> value; the field names are data and stay exactly as the platform sends them."),
  value: z.string().describe("Value of the macro for this record."),
}).describe("One record of a macro: a value chosen by field values.");

/** `deprecated`: spec, Versioning. */
export const Macro = wireRecord(
  {
    company_id: CompanyId,
    name: z.string().describe("Name."),
    description: z.string().describe("Description."),
    deprecated: IntFlag.describe("Deprecated (integer flag)."),
    type: z.string().describe("Type, e.g. `dynamic`."),
    value: z.string().describe("Default value."),
    fields: z.array(z.string()).describe("Names of the fields its records are keyed by."),
    records: z.array(MacroRecord).describe("Records."),
    size: Int.describe("Size (integer)."),
    create_time: CreateTime,
    update_time: UpdateTime,
  },
  "Macro id.",
).describe("A macro. Every field but `id` may be absent.");
