/** Profile property (spec, Resources), the record of op 11. */
import { z } from "zod";
import { CompanyId, CreateTime, IntFlag, UpdateTime, wireRecord } from "./common";

export const ProfileProperty = wireRecord(
  {
    company_id: CompanyId,
    target: z.string().describe("Target."),
    label: z.string().describe("Label."),
    data_type: z.string().describe("Data type, e.g. `text`."),
    example: z.string().describe("Example value."),
    description: z.string().describe("Description."),
    import_aliases: z.array(z.string()).describe("Names the property is imported under."),
    export_alias: z.string().describe("Name the property is exported under."),
    pi_data: IntFlag.describe("Personal information (integer flag)."),
    system: IntFlag.describe("System property (integer flag)."),
    importable: IntFlag.describe("Importable (integer flag)."),
    exportable: IntFlag.describe("Exportable (integer flag)."),
    create_time: CreateTime,
    update_time: UpdateTime,
  },
  "Property id.",
).describe("A profile property. Every field but `id` may be absent.");
