/**
 * Targeting sanity of bid modifiers (spec, Bid modifier: `targeting` maps a dimension such as
 * `countries` to `{ items, op }`):
 * - `targeting-country-codes`: every item of `countries` is a two-letter uppercase code (the
 *   platform's Country `code`, spec Country), and, when the pack is given the platform's country
 *   list, one of them.
 * - `targeting-empty-in`: no dimension with op `in` and no items, which matches nothing, so the
 *   modifier applies nowhere. (The provider accepts an empty list, since that is how a dimension is
 *   cleared; with `in` it is more often an item list that came out empty.)
 */
import { describe, objectOf, shown, type ResourceView } from "../resources";

export const TARGETING_COUNTRY_CODES = "targeting-country-codes";
export const TARGETING_EMPTY_IN = "targeting-empty-in";

/** The dimension whose items are country codes. */
const COUNTRIES = "countries";
const COUNTRY_CODE = /^[A-Z]{2}$/;

/** `targeting-country-codes` settings. */
export interface CountryCodesSettings {
  /**
   * The platform's country codes (op 17, `GET /v2/platform/countries`, the `code` of each), when
   * the team keeps a copy; without it only the format is checked.
   */
  countries?: string[];
}

/** The rule's `configSchema` properties. */
export const COUNTRY_CODES_SCHEMA = {
  countries: {
    type: "array",
    items: { type: "string" },
    description: "The platform's country codes; when set, every targeted country must be one of them.",
  },
} as const;

/** `targeting-empty-in` settings. */
export interface EmptyInSettings {
  /** The ops with which an empty item list is reported. */
  ops: string[];
}

/** Default: `in`, the op the spec names for bid modifiers. */
export const EMPTY_IN_DEFAULTS: EmptyInSettings = { ops: ["in"] };

/** The rule's `configSchema` properties. */
export const EMPTY_IN_SCHEMA = {
  ops: { type: "array", items: { type: "string" }, description: 'Ops with which an empty items list is reported (default ["in"]).' },
} as const;

/** The dimensions of a resource's `targeting`, as `[name, { items, op }]`. */
function dimensions(resource: ResourceView): Array<[string, { items: unknown; op: unknown }]> {
  const targeting = objectOf(resource.props.targeting) ?? {};
  return Object.entries(targeting).map(([name, dimension]) => {
    const { items, op } = objectOf(dimension) ?? {};
    return [name, { items, op }];
  });
}

/** The `targeting-country-codes` violations of one bid modifier. */
export function countryCodeViolations(resource: ResourceView, settings: CountryCodesSettings): string[] {
  const found: string[] = [];
  const known = settings.countries === undefined ? undefined : new Set(settings.countries);
  for (const [name, { items }] of dimensions(resource)) {
    if (name !== COUNTRIES || !Array.isArray(items)) continue;
    items.forEach((item: unknown, i) => {
      const where = `${describe(resource)}: targeting.${name}.items[${i}] ${shown(item)}`;
      if (typeof item !== "string" || !COUNTRY_CODE.test(item)) {
        found.push(`${where} is not a country code: two uppercase letters, such as "US".`);
      } else if (known !== undefined && !known.has(item)) {
        found.push(`${where} is not in the platform's country list (countries, ${known.size} codes).`);
      }
    });
  }
  return found;
}

/** The settings: the configuration over the defaults. */
export function emptyInSettings(config: Partial<EmptyInSettings>): EmptyInSettings {
  return { ops: config.ops ?? EMPTY_IN_DEFAULTS.ops };
}

/** The `targeting-empty-in` violations of one bid modifier. */
export function emptyInViolations(resource: ResourceView, settings: EmptyInSettings): string[] {
  return dimensions(resource)
    .filter(([, { items, op }]) => Array.isArray(items) && items.length === 0 && typeof op === "string" && settings.ops.includes(op))
    .map(
      ([name, { op }]) =>
        `${describe(resource)}: targeting.${name} has op ${shown(op)} and no items, so it matches nothing: ` +
        `list the items, or remove the dimension.`,
    );
}
