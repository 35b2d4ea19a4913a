/** Event-system integration (spec, Resources), the record of op 7. */
import { z } from "zod";
import { Timestamp, WireId, wireObject, wireRecord } from "./common";

/** Integration event definition (data only: spec, Events); nested, so its `id` may be absent. */
export const IntegrationEvent = wireObject({
  id: WireId,
  integration_id: WireId,
  name: z.string(),
  item: z.string(),
  description: z.string(),
  create_time: Timestamp,
  update_time: Timestamp,
});

/** One value of an action's `properties`. */
export const IntegrationActionProperty = wireObject({
  key: z.string(),
  type: z.string(),
  description: z.string(),
  required: z.boolean(),
});

/**
 * Integration action; nested, so its `id` may be absent. `properties` is keyed by property label: a
 * record, keys kept verbatim.
 */
export const IntegrationAction = wireObject({
  id: WireId,
  integration_id: WireId,
  name: z.string(),
  item: z.string(),
  engine: z.string(),
  properties: z.record(z.string(), IntegrationActionProperty),
  description: z.string(),
  create_time: Timestamp,
  update_time: Timestamp,
});

/** Integration record. */
export const Integration = wireRecord({
  name: z.string(),
  description: z.string(),
  logo: z.string(),
  homepage: z.string(),
  version: z.string(),
  audience: z.string(),
  events: z.array(IntegrationEvent),
  actions: z.array(IntegrationAction),
  create_time: Timestamp,
  update_time: Timestamp,
});
/** Wire type of an integration. */
export type Integration = z.output<typeof Integration>;
