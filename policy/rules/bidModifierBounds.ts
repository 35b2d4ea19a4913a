/**
 * `bid-modifier-bounds`: a bid modifier's `value` and `maxValue` at most the limits a team sets
 * (spec, Bid modifier: both are decimal strings, two and four decimal places in the sample).
 *
 * Decision (not shown in spec): what the two mean is not shown. The sample (`value` "1.50",
 * `max_value` "2.5000") reads as a factor applied to the bid and a price ceiling, so the defaults
 * bound them as such; a team that knows better sets its own. The API's own lower bound (non-negative)
 * is the provider's check, not repeated here. Bounds are inclusive.
 */
import { describe, numberOf, type ResourceView } from "../resources";

export const BID_MODIFIER_BOUNDS = "bid-modifier-bounds";

/** The rule's settings. */
export interface BidModifierBoundsSettings {
  /** Highest `value`. */
  valueMax: number;
  /** Highest `maxValue`. */
  maxValueMax: number;
}

/**
 * Defaults: a factor of 10 is already far beyond an ordinary adjustment (1.50 typed as 150 is
 * caught); a ceiling of 50 is the bid strategies' highest CPC price (bid-strategy-bounds).
 */
export const BID_MODIFIER_BOUNDS_DEFAULTS: BidModifierBoundsSettings = { valueMax: 10, maxValueMax: 50 };

/** The rule's `configSchema` properties. */
export const BID_MODIFIER_BOUNDS_SCHEMA = {
  valueMax: { type: "number", minimum: 0, description: "Highest bid modifier value." },
  maxValueMax: { type: "number", minimum: 0, description: "Highest bid modifier maxValue." },
} as const;

/** The settings: the configuration over the defaults. */
export function bidModifierBoundsSettings(config: Partial<BidModifierBoundsSettings>): BidModifierBoundsSettings {
  return {
    valueMax: config.valueMax ?? BID_MODIFIER_BOUNDS_DEFAULTS.valueMax,
    maxValueMax: config.maxValueMax ?? BID_MODIFIER_BOUNDS_DEFAULTS.maxValueMax,
  };
}

/** The violations of one bid modifier. */
export function bidModifierViolations(resource: ResourceView, settings: BidModifierBoundsSettings): string[] {
  const found: string[] = [];
  const value = numberOf(resource.props.value);
  const maxValue = numberOf(resource.props.maxValue);
  if (value !== undefined && value > settings.valueMax) {
    found.push(`${describe(resource)}: value ${value} is above ${settings.valueMax}, the highest bid modifier value (valueMax).`);
  }
  if (maxValue !== undefined && maxValue > settings.maxValueMax) {
    found.push(
      `${describe(resource)}: maxValue ${maxValue} is above ${settings.maxValueMax}, the highest bid modifier maxValue (maxValueMax).`,
    );
  }
  return found;
}
