/**
 * tests/upgrade/sdk-surface.json is the surface of today's build (`npm run upgrade:surface` after a
 * change of the SDK's public types), so every change of the public API shows in review.
 */
import * as fs from "node:fs";
import { SDK_ENTRY, SURFACE_FILE } from "../../../scripts/upgrade/programs";
import { readSdkSurface, surfaceText } from "../../../scripts/upgrade/sdkSurface";

jest.setTimeout(120_000);

it("tests/upgrade/sdk-surface.json is the build's SDK surface (run `npm run upgrade:surface`)", () => {
  expect(fs.readFileSync(SURFACE_FILE, "utf8")).toBe(surfaceText(readSdkSurface(SDK_ENTRY)));
});

it("reads a type alias beside a constant that constructs it as a class: members, and the constructor's parameters spread", () => {
  const surface = readSdkSurface(SDK_ENTRY);
  expect(surface.DataSourceNotFoundError).toMatchObject({
    kind: "class",
    members: { code: 'readonly "ADP_ERR_NOT_FOUND"', name: 'readonly "DataSourceNotFoundError"', subject: "readonly string" },
    signatures: [
      {
        parameters: ["functionName: string", "subject: string", "detail: string", "options?: { cause?: unknown; } | undefined"],
        returns: "any",
      },
    ],
  });
});
