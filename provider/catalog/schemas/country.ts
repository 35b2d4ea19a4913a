/** Country (spec, Resources), the record of op 17. */
import { z } from "zod";
import { wireRecord } from "./common";

/** Country record: `id` equals `code` (two letters); `code3` has three letters. */
export const Country = wireRecord({
  code: z.string(),
  code3: z.string(),
  name: z.string(),
});
/** Wire type of a country. */
export type Country = z.output<typeof Country>;
