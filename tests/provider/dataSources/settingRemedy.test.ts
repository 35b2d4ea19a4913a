/**
 * A failed read says what to fix: which connection setting is at fault, where its value came from
 * (configureDataSources, the stack config or the environment) and how to change it; a network
 * failure names the host and port. Units first, then real reads against the simulator.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  ApiAuthError,
  ApiConfigError,
  ApiError,
  ApiNetworkError,
  ApiNotFoundError,
  ApiServerError,
  getApiClient,
} from "../../../provider/client";
import {
  clearReadCache,
  hostAndPort,
  remedyFor,
  settingAtFault,
  type ConnectionSetting,
  type SettingOrigin,
} from "../../../provider/dataSources";
import { DataSourceRequestError, configureDataSources, getCountries, getZone, getZoneOutput } from "../../../sdk/dataSources";
import { clearConnectionSettings, DEMO_TOKEN, settle, useDataSourceHarness } from "../../helpers/dataSourceHarness";
import { closedPort } from "../../helpers/closedPort";

const context = { operation: { name: "getZone", number: 13 }, method: "GET", path: "/v2/adex/zones/1001" };

describe("settingAtFault", () => {
  it.each<[string, unknown, ConnectionSetting | undefined]>([
    ["a refused token (401)", new ApiAuthError({ ...context, status: 401 }), "token"],
    ["a token without access (403)", new ApiAuthError({ ...context, status: 403 }), "token"],
    ["a base URL the client refuses", new ApiConfigError("baseUrl", "refusing to send the API token over plain http://"), "baseUrl"],
    ["a token the client refuses", new ApiConfigError("token", "the API token contains spaces"), "token"],
    ["a config error of another setting", new ApiConfigError("timeoutMs", "not a number"), undefined],
    [
      "a connection that was never made",
      new ApiNetworkError("connection refused (ECONNREFUSED)", { ...context, mayHaveReachedServer: false }),
      "baseUrl",
    ],
    [
      "a connection that broke after sending",
      new ApiNetworkError("connection reset (ECONNRESET)", { ...context, mayHaveReachedServer: true }),
      undefined,
    ],
    ["a missing record", new ApiNotFoundError({ ...context, status: 404 }), undefined],
    ["a server error", new ApiServerError({ ...context, status: 500 }), undefined],
    ["another HTTP status", new ApiError("409 Conflict", { ...context, status: 409 }), undefined],
    ["an error that is not the client's", new Error("boom"), undefined],
  ])("%s", (_what, error, setting) => {
    expect(settingAtFault(error)).toBe(setting);
  });
});

describe("remedyFor", () => {
  it("names where the value came from and the command that changes it", () => {
    expect(remedyFor("token", "stackConfig")).toBe(
      "To fix: check the token, which comes from the stack config adplatform:token (it takes precedence over ADPLATFORM_TOKEN); " +
        "set it with `pulumi config set --secret adplatform:token <token>`.",
    );
    expect(remedyFor("baseUrl", "environment")).toBe(
      "To fix: check the base URL, which comes from the ADPLATFORM_BASE_URL environment variable; " +
        "set it there, or with `pulumi config set adplatform:baseUrl <url>`, which takes precedence.",
    );
    expect(remedyFor("token", "explicit")).toBe(
      "To fix: check the token, which comes from configureDataSources({ token }) (it takes precedence over adplatform:token " +
        "and ADPLATFORM_TOKEN); pass the right one there.",
    );
    expect(remedyFor("baseUrl", undefined)).toBe(
      "To fix: check the base URL; set it with `pulumi config set adplatform:baseUrl <url>` " +
        "or the ADPLATFORM_BASE_URL environment variable.",
    );
  });

  it.each<[ConnectionSetting, SettingOrigin | undefined]>([
    ["token", "explicit"],
    ["token", "stackConfig"],
    ["token", "environment"],
    ["token", undefined],
    ["baseUrl", "explicit"],
    ["baseUrl", "stackConfig"],
    ["baseUrl", "environment"],
    ["baseUrl", undefined],
  ])("%s from %s: one line naming the config key and the environment variable", (setting, origin) => {
    const line = remedyFor(setting, origin);
    expect(line).not.toContain("\n");
    expect(line).toContain(setting === "token" ? "adplatform:token" : "adplatform:baseUrl");
    expect(line).toContain(setting === "token" ? "ADPLATFORM_TOKEN" : "ADPLATFORM_BASE_URL");
    // The token is a secret: its config command says so.
    if (setting === "token" && origin !== "explicit") expect(line).toContain("pulumi config set --secret adplatform:token");
  });
});

describe("hostAndPort", () => {
  it.each([
    ["http://127.0.0.1:4010", "127.0.0.1:4010"],
    ["https://api.example.com", "api.example.com:443"],
    ["http://localhost", "localhost:80"],
    ["http://[::1]:8080", "[::1]:8080"],
  ])("%s is %s", (origin, expected) => {
    expect(hostAndPort(origin)).toBe(expected);
  });
});

/** The error `read` rejects with; fails the test when it resolves. */
async function failureOf(read: Promise<unknown>): Promise<Error> {
  return read.then(
    () => {
      throw new Error("the read succeeded");
    },
    (error: unknown) => error as Error,
  );
}

describe("a read that fails because of a setting says what to fix", () => {
  const saved = { ...process.env };
  const WRONG_TOKEN = "wrong-token-4b1d";
  const h = useDataSourceHarness({ retryOptions: { maxAttempts: 1 } });
  beforeEach(() => {
    clearReadCache();
    clearConnectionSettings();
  });
  afterEach(() => {
    process.env = { ...saved };
    pulumi.runtime.setAllConfig({});
    configureDataSources({});
  });

  it("a refused token from the stack config: the request, then where the token came from", async () => {
    pulumi.runtime.setAllConfig({ "adplatform:baseUrl": h.sim.url, "adplatform:token": WRONG_TOKEN }, ["adplatform:token"]);
    const error = await failureOf(getZone({ id: "1001" }));
    expect(error).toBeInstanceOf(DataSourceRequestError);
    expect(error).toMatchObject({ code: "ADP_ERR_REQUEST_FAILED", setting: "token" });
    const [first, fix, ...more] = error.message.split("\n");
    expect(first).toMatch(/^getZone: GET \/v2\/adex\/zones\/1001 failed: 401 Unauthorized/);
    expect(fix).toBe(remedyFor("token", "stackConfig"));
    expect(more).toEqual([]);
    expect(error.message).not.toContain(WRONG_TOKEN);
  });

  it("a refused token from the environment says so", async () => {
    process.env.ADPLATFORM_BASE_URL = h.sim.url;
    process.env.ADPLATFORM_TOKEN = WRONG_TOKEN;
    await expect(getCountries()).rejects.toThrow(`\n${remedyFor("token", "environment")}`);
  });

  it("the Output form rejects with the same message", async () => {
    configureDataSources({ baseUrl: h.sim.url, token: WRONG_TOKEN });
    await expect(settle(getZoneOutput({ id: "1001" }))).rejects.toThrow(`\n${remedyFor("token", "explicit")}`);
  });

  it("a base URL the client refuses: nothing is sent, and the base URL is the setting to fix", async () => {
    pulumi.runtime.setAllConfig({ "adplatform:baseUrl": "http://example.com", "adplatform:token": DEMO_TOKEN }, ["adplatform:token"]);
    const before = h.sim.requests().total;
    const read = getZone({ id: "1001" });
    await expect(read).rejects.toMatchObject({ setting: "baseUrl" });
    await expect(read).rejects.toThrow(
      "getZone: GET /v2/adex/zones/1001 failed: refusing to send the API token over plain http:// to example.com: use https://, " +
        `or a loopback address (localhost, 127.0.0.0/8, ::1) for the simulator\n${remedyFor("baseUrl", "stackConfig")}`,
    );
    expect(h.sim.requests().total).toBe(before);
  });

  it("a refused connection names the host and port, and the base URL is the setting to fix", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    // One attempt: the client's retries of a refused connection only make the test slower.
    getApiClient({ baseUrl: url, token: DEMO_TOKEN, retryOptions: { maxAttempts: 1 } });
    process.env.ADPLATFORM_BASE_URL = url;
    process.env.ADPLATFORM_TOKEN = DEMO_TOKEN;
    const read = getZone({ id: "1001" });
    await expect(read).rejects.toMatchObject({ setting: "baseUrl", cause: { causeCode: "ECONNREFUSED" } });
    await expect(read).rejects.toThrow(
      `getZone: GET /v2/adex/zones/1001 failed: connection refused (ECONNREFUSED) at ${url.slice("http://".length)}\n` +
        remedyFor("baseUrl", "environment"),
    );
  });

  it("a failure no setting explains has no remedy line", async () => {
    configureDataSources({ baseUrl: h.sim.url, token: DEMO_TOKEN });
    const error = await failureOf(getZone({ id: "999" }));
    expect(error.message).not.toContain("\n");
    expect(error).not.toHaveProperty("setting");
  });
});
