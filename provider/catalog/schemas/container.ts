/**
 * Container modal (op 5), container push prompt (op 6) and container group (op 20), with the pieces
 * modals and prompts share: Trigger, Display settings, A/B test config, Frequency, Message and the
 * recursive filter nodes (spec, Resources).
 */
import { z } from "zod";
import { Int, Timestamp, WireId, wireObject, wireRecord } from "./common";

/** `{percentage, pixels}` of one scroll axis. */
const ScrollAxis = wireObject({ percentage: Int, pixels: Int });

/** Trigger object (spec, "Trigger object (modal and prompt)"). */
export const Trigger = wireObject({
  element_visibility: wireObject({
    selector: z.string(),
    when_to_fire: z.string(),
    min_on_screen_time: Int,
    observe_dom_changes: z.boolean(),
  }),
  scroll_depth: wireObject({ horizontal: ScrollAxis, vertical: ScrollAxis }),
  click_element: wireObject({ enabled: z.boolean(), element: z.string() }),
  timer: Int,
  custom_event: wireObject({ event: z.string() }),
  require_all_triggers: z.boolean(),
  dom_content_ready: z.boolean(),
});
/** Wire type of a trigger object. */
export type Trigger = z.output<typeof Trigger>;

/** Display settings (spec: modal, prompt and message). */
export const DisplaySettings = wireObject({
  position: z.string(),
  background_color: z.string(),
  height: Int,
  width: Int,
  close_cta: z.boolean(),
  close_esc: z.boolean(),
  close_click: z.boolean(),
  close_auto: Int,
  delay: Int,
  animation: z.string(),
});
/** Wire type of display settings. */
export type DisplaySettings = z.output<typeof DisplaySettings>;

/** A/B test config (spec). */
export const AbTestConfig = wireObject({
  num_of_appears: Int,
  evaluation_window: Int,
  winning_metric: z.string(),
  name: z.string(),
  winner_delivery_mode: z.string(),
});
/** Wire type of an A/B test config. */
export type AbTestConfig = z.output<typeof AbTestConfig>;

/** Frequency (spec: modal only). */
export const Frequency = wireObject({
  per_session: Int,
  per_day: Int,
  per_week: Int,
  once_per_period: Int,
  show_cooldown: Int,
  always_show: z.boolean(),
  stop_after_interaction: z.boolean(),
});
/** Wire type of a frequency object. */
export type Frequency = z.output<typeof Frequency>;

/** Message record inside a modal or prompt (spec); nested, so its `id` may be absent. */
export const Message = wireObject({
  id: WireId,
  company_id: WireId,
  container_id: WireId,
  resource: z.string(),
  resource_id: WireId,
  experiment_id: WireId,
  template_id: WireId,
  name: z.string(),
  settings: DisplaySettings,
  variant: z.string(),
  winner: Int,
  primary_lang: z.string(),
  create_time: Timestamp,
  update_time: Timestamp,
});
/** Wire type of a message. */
export type Message = z.output<typeof Message>;

/** One filter node: `variable` (string id), `value`, optional nested `filters` of the same shape. */
export interface FilterNode {
  variable?: string;
  value?: string;
  filters?: FilterNode[];
  [extra: string]: unknown;
}
/** Recursive filter node (spec, Container modal `filters`). */
export const FilterNode: z.ZodType<FilterNode, unknown> = z.lazy(() =>
  wireObject({ variable: WireId, value: z.string(), filters: z.array(FilterNode) }),
);

/** Fields modals and prompts share (spec: "Shapes are the same as in the modal"). */
const containerItemShape = {
  company_id: WireId,
  container_id: WireId,
  status: z.string(),
  type: z.string(),
  name: z.string(),
  triggers: Trigger,
  filters: z.array(FilterNode),
  settings: DisplaySettings,
  ab_test_config: AbTestConfig,
  messages: z.array(Message),
  position: Int,
  create_time: Timestamp,
  update_time: Timestamp,
};

/** Container modal, the record of op 5. */
export const ContainerModal = wireRecord({
  ...containerItemShape,
  group: WireId,
  frequency: Frequency,
  impression_limit: Int,
  end_time: Timestamp,
});
/** Wire type of a container modal. */
export type ContainerModal = z.output<typeof ContainerModal>;

/**
 * Container push prompt, the record of op 6. spec: a prompt has a `uuid` and no `group`,
 * `frequency`, `impression_limit` or `end_time` (were they sent, the loose reader keeps them).
 */
export const ContainerPrompt = wireRecord({
  ...containerItemShape,
  uuid: z.string(),
});
/** Wire type of a container push prompt. */
export type ContainerPrompt = z.output<typeof ContainerPrompt>;

/** Container group, the record of op 20. */
export const ContainerGroup = wireRecord({
  company_id: WireId,
  name: z.string(),
  color: z.string(),
  num_of_items: Int,
  create_time: Timestamp,
  update_time: Timestamp,
});
/** Wire type of a container group. */
export type ContainerGroup = z.output<typeof ContainerGroup>;
