/** Creative (spec, Resources), the record of op 8. */
import { z } from "zod";
import { Int, Timestamp, wireObject, wireRecord } from "./common";

/** Localised field: `{key: <language code>, value: <string>}` (spec, Creative). */
export const Localised = wireObject({ key: z.string(), value: z.string() });
/** Wire type of a localised field. */
export type Localised = z.output<typeof Localised>;

/**
 * Creative record. `campaign_id` is an integer (spec: "except where a field table says integer"),
 * so it is not an id string. `tracking_pixels` may hold macro placeholders, so they are not checked
 * as URLs.
 */
export const Creative = wireRecord({
  name: z.string(),
  status: z.string(),
  type: z.string(),
  campaign_id: Int,
  landing_url: z.string(),
  target: z.string(),
  tracking_pixels: z.array(z.string()),
  advertiser_domain: z.string(),
  likes: Int,
  downloads: Int,
  price: z.number(),
  sale_price: z.number(),
  phone: z.string(),
  address: z.string(),
  html5: z.string(),
  third_party_code: z.string(),
  ctatext: z.string(),
  display_url: z.string(),
  postback: Int,
  bundle_id: z.string(),
  create_time: Timestamp,
  title: Localised,
  image: Localised,
  image_size: Localised,
  sponsored: Localised,
  description: Localised,
  description_2: Localised,
  banner: Localised,
});
/** Wire type of a creative. */
export type Creative = z.output<typeof Creative>;
