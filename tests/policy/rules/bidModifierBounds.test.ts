/**
 * The bid modifier rules: `bid-modifier-bounds` at, just under and just over each limit; the
 * advisory `bid-modifier-deprecated-tags`; targeting's country codes (format and the configured
 * list) and empty `in` dimensions.
 */
import { bidModifierBoundsSettings, bidModifierViolations } from "../../../policy/rules/bidModifierBounds";
import { deprecatedTagsViolations } from "../../../policy/rules/deprecatedTags";
import { countryCodeViolations, emptyInSettings, emptyInViolations } from "../../../policy/rules/targeting";

const modifier = (props: Record<string, unknown>) => ({
  kind: "BidModifier" as const,
  name: "m",
  props: { bidModifierId: "501", ...props },
});

describe("bid-modifier-bounds", () => {
  const defaults = bidModifierBoundsSettings({});

  it.each([
    ["value", 10, "valueMax"],
    ["maxValue", 50, "maxValueMax"],
  ])("%s: passes at %d and just under, reports just over (%s)", (property, limit, setting) => {
    expect(bidModifierViolations(modifier({ [property]: String(limit) }), defaults)).toEqual([]);
    expect(bidModifierViolations(modifier({ [property]: (limit - 0.01).toFixed(2) }), defaults)).toEqual([]);
    expect(bidModifierViolations(modifier({ [property]: (limit + 0.01).toFixed(2) }), defaults)).toEqual([
      expect.stringMatching(new RegExp(`^BidModifier "m": ${property} ${limit + 0.01} is above ${limit}, .*\\(${setting}\\)\\.$`)),
    ]);
  });

  it("reads numbers as well as decimal strings, and moves with the configuration", () => {
    const settings = bidModifierBoundsSettings({ valueMax: 2 });
    expect(settings).toEqual({ valueMax: 2, maxValueMax: 50 });
    expect(bidModifierViolations(modifier({ value: 2 }), settings)).toEqual([]);
    expect(bidModifierViolations(modifier({ value: 2.01 }), settings)).toHaveLength(1);
  });
});

describe("bid-modifier-deprecated-tags", () => {
  it("reports tags, even empty, and says when containers makes the API ignore them", () => {
    expect(deprecatedTagsViolations(modifier({ tags: [] }))).toEqual([
      'BidModifier "m": tags is deprecated by the API; use containers instead.',
    ]);
    expect(deprecatedTagsViolations(modifier({ tags: ["t"], containers: ["c"] }))).toEqual([
      'BidModifier "m": tags is deprecated by the API; use containers instead. It is ignored here, since containers is set too.',
    ]);
  });

  it("says nothing without tags", () => {
    expect(deprecatedTagsViolations(modifier({ containers: ["c"] }))).toEqual([]);
  });
});

describe("targeting-country-codes", () => {
  const countries = (items: unknown[]) => modifier({ targeting: { countries: { items, op: "in" } } });

  it("passes two uppercase letters", () => {
    expect(countryCodeViolations(countries(["US", "DE"]), {})).toEqual([]);
  });

  it.each([["usa"], ["U"], ["us"], ["U1"], [""], [7]])("reports %j, naming the item's path", (item) => {
    expect(countryCodeViolations(countries(["DE", item]), {})).toEqual([
      `BidModifier "m": targeting.countries.items[1] ${JSON.stringify(item)} is not a country code: two uppercase letters, such as "US".`,
    ]);
  });

  it("with the platform's list, reports a well-formed code not in it", () => {
    expect(countryCodeViolations(countries(["DE", "XX"]), { countries: ["DE", "US"] })).toEqual([
      `BidModifier "m": targeting.countries.items[1] "XX" is not in the platform's country list (countries, 2 codes).`,
    ]);
  });

  it("checks only the countries dimension", () => {
    expect(countryCodeViolations(modifier({ targeting: { languages: { items: ["english"], op: "in" } } }), {})).toEqual([]);
  });
});

describe("targeting-empty-in", () => {
  const defaults = emptyInSettings({});
  const dimension = (items: unknown[], op: string) => modifier({ targeting: { device_types: { items, op } } });

  it("reports op in with no items, and passes one item", () => {
    expect(emptyInViolations(dimension([], "in"), defaults)).toEqual([
      'BidModifier "m": targeting.device_types has op "in" and no items, so it matches nothing: list the items, or remove the dimension.',
    ]);
    expect(emptyInViolations(dimension(["mobile"], "in"), defaults)).toEqual([]);
  });

  it("leaves other ops alone unless configured", () => {
    expect(emptyInViolations(dimension([], "nin"), defaults)).toEqual([]);
    expect(emptyInViolations(dimension([], "nin"), emptyInSettings({ ops: ["in", "nin"] }))).toHaveLength(1);
  });
});
