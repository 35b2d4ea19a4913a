/** Event-system integration (spec, Resources), the record of op 7. */
import { z } from "zod";
import { CreateTime, UpdateTime, WireId, wireObject, wireRecord } from "./common";

/** Data only: spec, Events. */
export const IntegrationEvent = wireObject({
  id: WireId.describe("Event id; a nested record may come without one."),
  integration_id: WireId.describe("Id of the integration."),
  name: z.string().describe("Name."),
  item: z.string().describe("Item the event is about."),
  description: z.string().describe("Description."),
  create_time: CreateTime,
  update_time: UpdateTime,
}).describe("An event an integration defines (data only: they cannot be managed here).");

export const IntegrationActionProperty = wireObject({
  key: z.string().describe("Key."),
  type: z.string().describe("Type."),
  description: z.string().describe("Description."),
  required: z.boolean().describe("Whether it must be given."),
}).describe("One property of an integration action.");

export const IntegrationAction = wireObject({
  id: WireId.describe("Action id; a nested record may come without one."),
  integration_id: WireId.describe("Id of the integration."),
  name: z.string().describe("Name."),
  item: z.string().describe("Item the action is about."),
  engine: z.string().describe("Engine, e.g. `email`."),
  properties: z
    .record(z.string(), IntegrationActionProperty)
    .describe("Properties keyed by property label; the labels are data and stay exactly as the platform sends them."),
  description: z.string().describe("Description."),
  create_time: CreateTime,
  update_time: UpdateTime,
}).describe("An action an integration offers.");

export const Integration = wireRecord(
  {
    name: z.string().describe("Name."),
    description: z.string().describe("Description."),
    logo: z.string().describe("Logo URL."),
    homepage: z.string().describe("Homepage URL."),
    version: z.string().describe("The integration's own version string."),
    audience: z.string().describe("Audience, e.g. `public`."),
    events: z.array(IntegrationEvent).describe("Event definitions."),
    actions: z.array(IntegrationAction).describe("Actions."),
    create_time: CreateTime,
    update_time: UpdateTime,
  },
  "Integration id.",
).describe("An event-system integration. Every field but `id` may be absent.");
