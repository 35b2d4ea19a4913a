/**
 * Every checked-in derived file (schema.json, the SDK's generated declarations, the API reference)
 * equals what the generators make of today's definitions: a definition edited without
 * `npm run generate` fails here, naming the files.
 */
import { GENERATORS } from "../../../scripts/generate/generators";
import { changes } from "../../../scripts/generate/staleFiles";

jest.setTimeout(120_000);

it("finds every generated file up to date (run `npm run generate` after changing a definition)", async () => {
  const { write, remove } = await changes(GENERATORS);
  expect({ stale: write.map((f) => f.path), noLongerGenerated: remove }).toEqual({ stale: [], noLongerGenerated: [] });
});
