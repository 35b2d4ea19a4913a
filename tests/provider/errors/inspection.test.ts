/**
 * A data source's error, inspected: its stack, its fields and its causes, written out so that
 * Node's coloured inspection of a stack line under `node_modules/@scope/file.ts` (where the Pulumi
 * SDK's source maps put `output.ts`) never runs: on Node 20.20 it loops until the string is too long.
 */
import { inspect } from "node:util";
import { ApiConfigError } from "../../../provider/client";
import { DataSourceNotFoundError, DataSourceRequestError } from "../../../provider/dataSources";
import { describeError } from "../../../provider/errors";

/** A stack as a read that fails inside an `Output` has it in a Pulumi program. */
const STACK_THROUGH_OUTPUT =
  "    at resolveFor (/app/node_modules/pulumi-adplatform/bin/provider/dataSources/engine.js:74:47)\n" +
  "    at applyHelperAsync (/app/node_modules/@pulumi/output.ts:516:31)\n" +
  "    at /app/node_modules/@pulumi/output.ts:378:13";

function failedRead(): DataSourceRequestError {
  const cause = new ApiConfigError("baseUrl", "refusing to send the API token over plain http:// to example.com");
  cause.stack = `ApiConfigError: ${cause.message}\n${STACK_THROUGH_OUTPUT}`;
  const error = new DataSourceRequestError("getZone", "GET /v2/adex/zones/1001 failed: refusing ...\nTo fix: check the base URL", {
    cause,
    setting: "baseUrl",
  });
  error.stack = `DataSourceRequestError: ${error.message}\n${STACK_THROUGH_OUTPUT}`;
  return error;
}

it("shows the stack, the fields and the cause with its fields, in colour too", () => {
  const error = failedRead();
  for (const colors of [false, true]) {
    const text = inspect(error, { colors });
    expect(text.startsWith(error.stack!)).toBe(true);
    expect(text).toContain("functionName:");
    expect(text).toContain("ADP_ERR_REQUEST_FAILED");
    expect(text).toContain("[cause]: ApiConfigError: refusing to send the API token");
    expect(text).toContain("      at applyHelperAsync (/app/node_modules/@pulumi/output.ts:516:31)");
    expect(text).toContain("ADP_ERR_CONFIG");
  }
  expect(inspect(error)).toBe(describeError(error));
});

it("leaves out the rejected promise the Pulumi runtime hangs on an error", () => {
  const error = failedRead() as DataSourceRequestError & { promise?: Promise<unknown> };
  error.promise = Promise.reject(error);
  error.promise.catch(() => undefined);
  const text = inspect(error);
  expect(text).not.toContain("Promise");
  expect(text).not.toContain("Circular");
});

it("an error without a stack shows its name and message", () => {
  const error = new DataSourceNotFoundError("getZone", 'zone "999"', "GET /v2/adex/zones/999 returned 404");
  error.stack = undefined;
  expect(inspect(error).split("\n")[0]).toBe(
    'DataSourceNotFoundError: getZone: zone "999" not found (GET /v2/adex/zones/999 returned 404)',
  );
});

it("shows three causes deep, then the next one's name and message only", () => {
  let cause: Error = new Error("level 5");
  for (let level = 4; level >= 1; level -= 1) cause = new Error(`level ${level}`, { cause });
  const text = describeError(new DataSourceRequestError("getZone", "failed", { cause }));
  expect(text).toContain("[cause]: Error: level 3");
  expect(text).toMatch(/\[cause\]: Error: level 4$/);
  expect(text).not.toContain("level 5");
});

it("a cause that is not an error is inspected as a value", () => {
  expect(describeError(new DataSourceRequestError("getZone", "failed", { cause: { status: 500 } }))).toContain("[cause]: { status: 500 }");
});
