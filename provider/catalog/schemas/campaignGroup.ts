/** Campaign group (spec, Resources): create body and response of op 2, view record of op 19. */
import { z } from "zod";
import { CompanyId, CreateTime, Int, RequestId, RequestName, UpdateTime, WireId, wireRecord } from "./common";

/** spec, Campaign group: "hex colour `#rrggbb`". Decision (not shown in spec): either letter case, sent as written. */
export const HexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, "color must be a hex colour #rrggbb");

/**
 * spec, Endpoints 2 and rule 4. Decision (not shown in spec, rule 10): all three fields are required;
 * an empty or repeating `items` is sent (membership is a set to the provider and the simulator).
 */
export const CampaignGroupCreate = z.strictObject({
  name: RequestName,
  color: HexColor,
  items: z.array(RequestId),
});

/** 201 body of op 2: `id`, `company_id`, `name`, `color`, `items` (spec, Endpoints 2). */
export const CampaignGroupCreated = wireRecord({
  company_id: WireId,
  name: z.string(),
  color: z.string(),
  items: z.array(WireId),
});
export type CampaignGroupCreated = z.output<typeof CampaignGroupCreated>;

/** View record of op 19. spec, Campaign group: `items` is "not returned by view". */
export const CampaignGroup = wireRecord(
  {
    company_id: CompanyId,
    name: z.string().describe("Name."),
    color: z.string().describe("Colour, `#rrggbb`."),
    items: z.array(WireId).describe("Campaign ids. The view does not return them; present only if the platform sends them anyway."),
    size: Int.describe("Number of campaigns in the group (integer)."),
    create_time: CreateTime,
    update_time: UpdateTime,
  },
  "Group id.",
).describe("A campaign group as the view returns it. Every field but `id` may be absent.");
export type CampaignGroup = z.output<typeof CampaignGroup>;
