/**
 * Messaging provider (spec, Resources "Provider"), the record of op 16. Named "messaging provider"
 * in code so it is not confused with the Pulumi provider.
 */
import { z } from "zod";
import { Timestamp, WireId, wireObject, wireRecord } from "./common";

/** One provider setting; `deprecated` marks a deprecated setting (spec, Versioning). */
export const MessagingProviderSetting = wireObject({
  title: z.string(),
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  deprecated: z.boolean(),
});

/** Provider record. */
export const MessagingProvider = wireRecord({
  company_id: WireId,
  title: z.string(),
  name: z.string(),
  type: z.string(),
  logo: z.string(),
  settings: z.array(MessagingProviderSetting),
  create_time: Timestamp,
  update_time: Timestamp,
});
/** Wire type of a messaging provider. */
export type MessagingProvider = z.output<typeof MessagingProvider>;
