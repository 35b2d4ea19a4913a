/** Provider (spec, Resources), the record of op 16; "messaging" tells it from the Pulumi provider. */
import { z } from "zod";
import { CompanyId, CreateTime, UpdateTime, wireObject, wireRecord } from "./common";

/** `deprecated`: spec, Versioning. */
export const MessagingProviderSetting = wireObject({
  title: z.string().describe("Title."),
  name: z.string().describe("Name."),
  type: z.string().describe("Type."),
  required: z.boolean().describe("Whether it must be given."),
  deprecated: z.boolean().describe("Whether it is deprecated."),
}).describe("One setting a messaging provider asks for.");

export const MessagingProvider = wireRecord(
  {
    company_id: CompanyId,
    title: z.string().describe("Title."),
    name: z.string().describe("Name."),
    type: z.string().describe("Type, e.g. `sms`."),
    logo: z.string().describe("Logo URL."),
    settings: z.array(MessagingProviderSetting).describe("Settings."),
    create_time: CreateTime,
    update_time: UpdateTime,
  },
  "Provider id.",
).describe("A messaging provider. Every field but `id` may be absent.");
