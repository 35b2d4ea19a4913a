/** Container modal (op 5), push prompt (op 6) and group (op 20), with the pieces modals and prompts share (spec, Resources). */
import { z } from "zod";
import { CompanyId, CreateTime, Int, Timestamp, UpdateTime, WireId, wireObject, wireRecord } from "./common";

export const ScrollAxis = wireObject({
  percentage: Int.describe("Percentage scrolled (integer)."),
  pixels: Int.describe("Pixels scrolled (integer)."),
}).describe("A scroll threshold of one axis.");

/** spec, "Trigger object (modal and prompt)". */
export const Trigger = wireObject({
  element_visibility: wireObject({
    selector: z.string().describe("CSS selector of the element."),
    when_to_fire: z.string().describe("How often it fires, e.g. `once-per-page`."),
    min_on_screen_time: Int.describe("Time the element must stay on screen (integer)."),
    observe_dom_changes: z.boolean().describe("Whether DOM changes are observed for the element to appear."),
  }).describe("Fire when an element becomes visible."),
  scroll_depth: wireObject({
    horizontal: ScrollAxis.describe("Horizontal threshold."),
    vertical: ScrollAxis.describe("Vertical threshold."),
  }).describe("Fire at a scroll depth, per axis."),
  click_element: wireObject({
    enabled: z.boolean().describe("Whether the click trigger is on."),
    element: z.string().describe("The element clicked (selector)."),
  }).describe("Fire on a click."),
  timer: Int.describe("Fire after a delay (integer)."),
  custom_event: wireObject({ event: z.string().describe("Event name.") }).describe("Fire on a custom event."),
  require_all_triggers: z.boolean().describe("True: every configured trigger must fire; false: any one is enough."),
  dom_content_ready: z.boolean().describe("Fire once the DOM content is ready."),
}).describe("When a modal or prompt shows.");

/** spec: modal, prompt and message. */
export const DisplaySettings = wireObject({
  position: z.string().describe("Screen position, e.g. `top-left`."),
  background_color: z.string().describe("Background colour."),
  height: Int.describe("Height (integer)."),
  width: Int.describe("Width (integer)."),
  close_cta: z.boolean().describe("Close on the call-to-action."),
  close_esc: z.boolean().describe("Close on the Escape key."),
  close_click: z.boolean().describe("Close on a click outside."),
  close_auto: Int.describe("Close automatically after this time (integer)."),
  delay: Int.describe("Delay before showing (integer)."),
  animation: z.string().describe("Animation, e.g. `slide-up`."),
}).describe("How a modal, prompt or message is displayed.");

export const AbTestConfig = wireObject({
  num_of_appears: Int.describe("Number of appearances (integer)."),
  evaluation_window: Int.describe("Evaluation window (integer)."),
  winning_metric: z.string().describe("Metric that picks the winner, e.g. `click_rate`."),
  name: z.string().describe("Name of the test."),
  winner_delivery_mode: z.string().describe("How the winner is delivered, e.g. `automatic`."),
}).describe("A/B test configuration of a modal or prompt.");

/** spec: modal only. */
export const Frequency = wireObject({
  per_session: Int.describe("Times per session (integer)."),
  per_day: Int.describe("Times per day (integer)."),
  per_week: Int.describe("Times per week (integer)."),
  once_per_period: Int.describe("Once per period (integer)."),
  show_cooldown: Int.describe("Cooldown between showings (integer)."),
  always_show: z.boolean().describe("Show every time, ignoring the limits."),
  stop_after_interaction: z.boolean().describe("Stop once the visitor interacted."),
}).describe("How often a modal may show.");

export const Message = wireObject({
  id: WireId.describe("Message id; a nested record may come without one."),
  company_id: WireId.describe("Company (account) id."),
  container_id: WireId.describe("Container id."),
  resource: z.string().describe("Kind of the owner, e.g. `modal`."),
  resource_id: WireId.describe("Id of the owner."),
  experiment_id: WireId.describe("Experiment id."),
  template_id: WireId.describe("Template id."),
  name: z.string().describe("Message name."),
  settings: DisplaySettings.describe("Display settings of the message."),
  variant: z.string().describe("A/B variant label."),
  winner: Int.describe("Whether this variant won (integer flag)."),
  primary_lang: z.string().describe("Primary language code."),
  create_time: CreateTime,
  update_time: UpdateTime,
}).describe("A message inside a modal or prompt.");

/** spec, Container modal `filters`. */
export interface FilterNode {
  variable?: string;
  value?: string;
  filters?: FilterNode[];
  [extra: string]: unknown;
}
export const FilterNode: z.ZodType<FilterNode, unknown> = z
  .lazy(() =>
    wireObject({
      variable: WireId.describe("Id of the variable tested."),
      value: z.string().describe("Value compared with."),
      filters: z.array(FilterNode).describe("Nested filter nodes of the same shape."),
    }),
  )
  .describe("One node of a recursive audience filter.");

/** Fields modals and prompts share (spec: "Shapes are the same as in the modal"). */
const containerItemShape = {
  company_id: CompanyId,
  container_id: WireId.describe("Container id."),
  status: z.string().describe("Status, e.g. `active`."),
  type: z.string().describe("Type, e.g. `push` for a modal, `html` for a prompt."),
  name: z.string().describe("Name."),
  triggers: Trigger.describe("When it shows."),
  filters: z.array(FilterNode).describe("Recursive audience filter nodes."),
  settings: DisplaySettings.describe("Display settings."),
  ab_test_config: AbTestConfig.describe("A/B test configuration."),
  messages: z.array(Message).describe("Its messages."),
  position: Int.describe("Position (integer)."),
  create_time: CreateTime,
  update_time: UpdateTime,
};

const CONTAINER_ITEM_ID = "Id of the modal or prompt.";

export const ContainerItem = wireRecord(containerItemShape, CONTAINER_ITEM_ID).describe(
  "The fields a container modal and a container push prompt share. Every field but `id` may be absent.",
);

export const ContainerModal = wireRecord(
  {
    ...containerItemShape,
    group: WireId.describe("Container group id."),
    frequency: Frequency.describe("How often it may show."),
    impression_limit: Int.describe("Impression limit (integer)."),
    end_time: Timestamp.describe("End, `YYYY-MM-DD HH:MM:SS`."),
  },
  CONTAINER_ITEM_ID,
).describe("A container modal: the shared container fields plus the modal's own.");

/** spec: a prompt has a `uuid` and no `group`, `frequency`, `impression_limit` or `end_time` (kept if sent). */
export const ContainerPrompt = wireRecord(
  { ...containerItemShape, uuid: z.string().describe("UUID of the prompt.") },
  CONTAINER_ITEM_ID,
).describe("A container push prompt: shaped like a modal, with a `uuid` and without `group`, `frequency`, `impressionLimit` or `endTime`.");

export const ContainerGroup = wireRecord(
  {
    company_id: CompanyId,
    name: z.string().describe("Name."),
    color: z.string().describe("Colour (hex)."),
    num_of_items: Int.describe("Number of items in the group (integer)."),
    create_time: CreateTime,
    update_time: UpdateTime,
  },
  "Group id.",
).describe("A container group. Every field but `id` may be absent.");
