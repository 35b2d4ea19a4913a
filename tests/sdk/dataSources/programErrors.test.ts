/**
 * How a failed read shows in a Pulumi program: a data source's error carries the runtime's RunError
 * mark (so the language host prints its message alone), unless `ADPLATFORM_DEBUG=1` asks for the
 * full report; it stays the data source's error class; and a late-handled rejection of it raises no
 * PromiseRejectionHandledWarning, while any other still does.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { clearReadCache } from "../../../provider/dataSources";
import {
  DataSourceArgumentError,
  DataSourceNotFoundError,
  DataSourceRequestError,
  configureDataSources,
  getCountries,
  getZone,
  getZoneOutput,
} from "../../../sdk/dataSources";
import { debugRequested } from "../../../provider/client";
import { asProgramError } from "../../../sdk/dataSources/programErrors";
import { DEMO_TOKEN, settle, useDataSourceHarness } from "../../helpers/dataSourceHarness";

describe("debugRequested", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["0", false],
    ["false", false],
    ["1", true],
    ["true", true],
    [" TRUE ", true],
  ])("ADPLATFORM_DEBUG=%p is %p", (value, expected) => {
    expect(debugRequested(value === undefined ? {} : { ADPLATFORM_DEBUG: value })).toBe(expected);
  });
});

describe("asProgramError", () => {
  it("marks a data source's error as a RunError, the same object, not as data", () => {
    const error = new DataSourceNotFoundError("getZone", 'zone "999"', "GET /v2/adex/zones/999 returned 404");
    expect(pulumi.RunError.isInstance(error)).toBe(false);
    expect(asProgramError(error, {})).toBe(error);
    expect(pulumi.RunError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(DataSourceNotFoundError);
    expect(Object.keys(error)).not.toContain("__pulumiRunError");
    expect(JSON.stringify(error)).not.toContain("__pulumiRunError");
  });

  it("leaves it unmarked when ADPLATFORM_DEBUG=1 asks for the full report", () => {
    const error = new DataSourceRequestError("getZone", "GET /v2/adex/zones/1001 failed");
    asProgramError(error, { ADPLATFORM_DEBUG: "1" });
    expect(pulumi.RunError.isInstance(error)).toBe(false);
  });

  it("leaves any other error unmarked: a bug keeps its stack", () => {
    const error = new TypeError("x is undefined");
    asProgramError(error, {});
    expect(pulumi.RunError.isInstance(error)).toBe(false);
  });
});

describe("the data sources' rejections are marked", () => {
  const saved = process.env.ADPLATFORM_DEBUG;
  const h = useDataSourceHarness({ retryOptions: { maxAttempts: 1 } });
  beforeEach(() => {
    clearReadCache();
    configureDataSources({ baseUrl: h.sim.url, token: DEMO_TOKEN });
    delete process.env.ADPLATFORM_DEBUG;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.ADPLATFORM_DEBUG;
    else process.env.ADPLATFORM_DEBUG = saved;
  });

  /** Whether `read` rejects with an error the runtime takes for a RunError. */
  const rejectsAsRunError = (read: Promise<unknown>) =>
    read.then(
      () => false,
      (error: unknown) => pulumi.RunError.isInstance(error),
    );

  it("in the promise form, whatever the failure", async () => {
    await expect(rejectsAsRunError(getZone({ id: "999" }))).resolves.toBe(true);
    await expect(getZone({ id: "" })).rejects.toBeInstanceOf(DataSourceArgumentError);
    await expect(rejectsAsRunError(getZone({ id: "" }))).resolves.toBe(true);
    configureDataSources({ baseUrl: h.sim.url, token: "wrong-token" });
    await expect(rejectsAsRunError(getCountries())).resolves.toBe(true);
  });

  it("in the Output form", async () => {
    await expect(rejectsAsRunError(settle(getZoneOutput({ id: "999" })))).resolves.toBe(true);
  });

  it("not with ADPLATFORM_DEBUG=1", async () => {
    process.env.ADPLATFORM_DEBUG = "1";
    const error = await getZone({ id: "999" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataSourceNotFoundError);
    expect(pulumi.RunError.isInstance(error)).toBe(false);
  });
});

describe("a late-handled rejection", () => {
  it("of a data source's error raises no warning; of another error, Node's warning", () => {
    // A process of its own: jest tracks rejections itself. It reports rejections unhandled as the
    // Pulumi runtime does (an `unhandledRejection` listener) and handles both later, as the runtime
    // does when it gets to an Output's promises.
    const bin = path.resolve(__dirname, "..", "..", "..", "bin");
    const script = `
      const { asProgramError } = require(${JSON.stringify(path.join(bin, "sdk", "dataSources", "programErrors.js"))});
      const { DataSourceRequestError } = require(${JSON.stringify(path.join(bin, "provider", "dataSources"))});
      process.on("unhandledRejection", () => {});
      const ours = Promise.reject(asProgramError(new DataSourceRequestError("getZone", "failed")));
      const other = Promise.reject(new Error("another failure"));
      setImmediate(() => { ours.catch(() => {}); other.catch(() => {}); });
    `;
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stderr.match(/PromiseRejectionHandledWarning/g) ?? []).toHaveLength(1);
  });
});
