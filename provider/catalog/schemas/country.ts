/** Country (spec, Resources), the record of op 17. */
import { z } from "zod";
import { wireRecord } from "./common";

export const Country = wireRecord(
  {
    code: z.string().describe("Two-letter code, e.g. `DE`."),
    code3: z.string().describe("Three-letter code, e.g. `DEU`."),
    name: z.string().describe("Name."),
  },
  "Country id; equals `code`.",
).describe("A country. Every field but `id` may be absent.");
