/** The `rateLimitShare` setting: what it accepts, and where a refusal says it was set. */
import { rateLimitShareRefusal } from "../../../provider/configuration/rateLimitShare";
import { rateLimitShareOf } from "../../../provider/resources/lifecycle/api";
import { resolveSettings, stackConfigLayer, valuesLayer } from "../../../provider/configuration/settings";
import { bidModifierLifecycle } from "../../../provider/resources/bidModifier/lifecycle";
import { CreateSession } from "../../../provider/resources/journal";

it("accepts a fraction above 0 and at most 1, written as a decimal or given as a number", () => {
  for (const good of ["0.5", "1", ".25", " 0.3 ", "1.0", 0.5, 1]) expect(rateLimitShareRefusal(good)).toBeUndefined();
  for (const bad of ["0", "0.0", "-0.5", "1.01", "2", "half", "1e-1", "0x1", "50%", "", 0, -1, 1.5, Number.NaN, null, true]) {
    expect(rateLimitShareRefusal(bad)).toMatch(/^adplatform:rateLimitShare must be a number above 0 and at most 1/);
  }
});

it("is the whole limit when set nowhere", () => {
  expect(rateLimitShareOf(resolveSettings([], {}))).toBe(1);
});

it("reads the stack config, else the environment; a refusal names the place it was set", () => {
  const env = { ADPLATFORM_RATE_LIMIT_SHARE: "0.25" };
  expect(rateLimitShareOf(resolveSettings([], env))).toBe(0.25);
  expect(rateLimitShareOf(resolveSettings([stackConfigLayer(() => "0.5")], env))).toBe(0.5);
  expect(() => rateLimitShareOf(resolveSettings([stackConfigLayer(() => "1.5")], env))).toThrow(/^adplatform:rateLimitShare must be/);
  expect(() => rateLimitShareOf(resolveSettings([], { ADPLATFORM_RATE_LIMIT_SHARE: "0" }))).toThrow(/^ADPLATFORM_RATE_LIMIT_SHARE must be/);
  expect(() => rateLimitShareOf(resolveSettings([valuesLayer("explicit", { rateLimitShare: "x" })], {}))).toThrow(
    /^rateLimitShare must be/,
  );
});

it("fails a resource's check (the preview) naming where an unusable share was set, on both faces' lifecycle", async () => {
  const check = (settings: ReturnType<typeof resolveSettings>) =>
    bidModifierLifecycle.check(
      {},
      { bidModifierId: "501", name: "A" },
      {
        warn: async () => undefined,
        info: async () => undefined,
        settings,
        createSession: new CreateSession(),
      },
    );
  expect((await check(resolveSettings([], { ADPLATFORM_RATE_LIMIT_SHARE: "2" }))).failures).toEqual([
    { property: "", reason: expect.stringMatching(/^ADPLATFORM_RATE_LIMIT_SHARE must be a number above 0 and at most 1/) },
  ]);
  expect(
    (await check(resolveSettings([stackConfigLayer((key) => (key === "adplatform:rateLimitShare" ? "0" : undefined))], {}))).failures,
  ).toEqual([{ property: "", reason: expect.stringMatching(/^adplatform:rateLimitShare must be/) }]);
  expect(
    (await check(resolveSettings([stackConfigLayer((key) => (key === "adplatform:rateLimitShare" ? "0.5" : undefined))], {}))).failures,
  ).toEqual([]);
});
