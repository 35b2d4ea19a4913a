/** Creative (spec, Resources), the record of op 8. */
import { z } from "zod";
import { CreateTime, Int, wireObject, wireRecord } from "./common";

/** spec, Creative. */
export const Localised = wireObject({
  key: z.string().describe("Language code, e.g. `en`."),
  value: z.string().describe("Text (or, for `imageSize`, `<width>x<height>`; for `image` and `banner`, a URL)."),
}).describe("A localised creative field: one language and its text.");

/** spec: `campaign_id` is an integer, not an id string; `tracking_pixels` may hold macro placeholders, so are not URLs. */
export const Creative = wireRecord(
  {
    name: z.string().describe("Name."),
    status: z.string().describe("Status, e.g. `active`."),
    type: z.string().describe("Type, e.g. `dynamic-native`."),
    campaign_id: Int.describe("Campaign id, an integer (unlike other ids)."),
    landing_url: z.string().describe("Landing page URL."),
    target: z.string().describe("Link target, e.g. `_top`."),
    tracking_pixels: z.array(z.string()).describe("Tracking pixel URLs; they may hold macro placeholders such as `{campaign_id}`."),
    advertiser_domain: z.string().describe("Advertiser domain."),
    likes: Int.describe("Likes (integer)."),
    downloads: Int.describe("Downloads (integer)."),
    price: z.number().describe("Price."),
    sale_price: z.number().describe("Sale price."),
    phone: z.string().describe("Phone."),
    address: z.string().describe("Address."),
    html5: z.string().describe("HTML5 markup."),
    third_party_code: z.string().describe("Third-party markup."),
    ctatext: z.string().describe("Call-to-action text."),
    display_url: z.string().describe("Display URL."),
    postback: Int.describe("Postback (integer)."),
    bundle_id: z.string().describe("App bundle id."),
    create_time: CreateTime,
    title: Localised.describe("Title, localised."),
    image: Localised.describe("Image URL, localised."),
    image_size: Localised.describe("Image size `<width>x<height>`, localised."),
    sponsored: Localised.describe("Sponsor line, localised."),
    description: Localised.describe("Description, localised."),
    description_2: Localised.describe("Second description, localised (wire name `description_2`)."),
    banner: Localised.describe("Banner, localised."),
  },
  "Creative id.",
).describe("A creative. Every field but `id` may be absent.");
