/**
 * The build against the last release (`npm run upgrade:check`): today's schema and SDK surface break
 * nothing 0.1.0's users rely on, or the version says so; and how a failing check reads.
 */
import { SDK_ENTRY } from "../../../scripts/upgrade/programs";
import { baselineFor, checkAgainstRelease, currentVersion, describeCheck } from "../../../scripts/upgrade/releaseCheck";
import { readSdkSurface } from "../../../scripts/upgrade/sdkSurface";

jest.setTimeout(120_000);

it("the build breaks nothing of the last release, unless its version is a new major", () => {
  const check = checkAgainstRelease(readSdkSurface(SDK_ENTRY));
  expect(check.baseline).toBe(baselineFor(currentVersion()));
  expect(describeCheck(check)).toEqual({ ok: true, text: expect.any(String) });
});

it("compares with the newest release not newer than the version", () => {
  expect(baselineFor("0.1.0")).toBe("0.1.0");
  expect(baselineFor("0.4.2")).toBe("0.1.0");
  expect(() => baselineFor("0.0.9")).toThrow("no release at or below 0.0.9");
});

it("fails a breaking change within the baseline's major and says what to do; lets it through in a new major", () => {
  const check = {
    baseline: "0.1.0",
    current: "0.1.1",
    schema: ["resource adplatform:index:BidStrategy: removed"],
    surface: [],
    allowed: false,
  };
  const failed = describeCheck(check);
  expect(failed.ok).toBe(false);
  expect(failed.text).toContain("native schema: resource adplatform:index:BidStrategy: removed");
  expect(failed.text).toContain("CHANGELOG.md");
  expect(describeCheck({ ...check, current: "0.2.0", allowed: true })).toEqual({
    ok: true,
    text: expect.stringContaining("allowed: 0.2.0"),
  });
});
