/**
 * Clear errors: an unknown id names the function, the object and the request; a placement on a
 * non-display zone says why (spec, rule 5); a malformed response names the field; invalid arguments
 * and missing credentials are refused before anything is sent.
 */
import {
  DataSourceArgumentError,
  DataSourceCredentialsError,
  DataSourceError,
  DataSourceNotDisplayZoneError,
  DataSourceNotFoundError,
  DataSourceRequestError,
  DataSourceResponseError,
  configureDataSources,
  getContainerModal,
  getCountries,
  getIntegration,
  getSegments,
  getZone,
  getZoneOutput,
  getZonePlacement,
} from "../../../sdk/dataSources";
import { clearReadCache } from "../../../provider/dataSources";
import {
  ApiConfigError,
  ApiNotFoundError,
  ApiRequestValidationError,
  ApiResponseError,
  ApiValidationError,
} from "../../../provider/client";
import { SEED_IDS } from "../../../simulator";
import { seedState } from "../../../simulator/fixtures";
import { DEMO_TOKEN, settle, useDataSourceHarness } from "../../helpers/dataSourceHarness";

const h = useDataSourceHarness({
  // Seeded data with one broken record per shape: a zone whose bid floor is a word, and a
  // segment list whose second record has a numeric name. Everything else is the normal seed.
  fixtures: (ctx) => {
    const state = seedState(ctx);
    state.zones!.push({ ...state.zones![0]!, id: "1999", bid_floor: "cheap" });
    state.segments![1] = { ...state.segments![1]!, name: 42 };
    return state;
  },
  retryOptions: { maxAttempts: 1 },
});
beforeEach(() => {
  clearReadCache();
  configureDataSources({ baseUrl: h.sim.url, token: DEMO_TOKEN });
});

const sent = () => h.sim.requests().total;

describe("unknown ids", () => {
  it("name the function, the object and the request", async () => {
    const read = getZone({ id: "999" });
    await expect(read).rejects.toThrow(DataSourceNotFoundError);
    await expect(read).rejects.toThrow('getZone: zone "999" not found (GET /v2/adex/zones/999 returned 404)');
    await expect(read).rejects.toMatchObject({ code: "ADP_ERR_NOT_FOUND", functionName: "getZone", subject: 'zone "999"' });
    await expect(read).rejects.toHaveProperty("cause", expect.any(ApiNotFoundError));
    // The same reason has the same code in both layers.
    await expect(read).rejects.toHaveProperty("cause.code", "ADP_ERR_NOT_FOUND");
  });

  it("name both ids of a nested path", async () => {
    await expect(getContainerModal({ containerId: SEED_IDS.containers.main, id: "4999" })).rejects.toThrow(
      'getContainerModal: modal "4999" of container "100" not found (GET /v1/hood/containers/100/modals/4999 returned 404)',
    );
  });

  it("reject the Output form with the same error", async () => {
    await expect(settle(getZoneOutput({ id: "999" }))).rejects.toThrow('getZone: zone "999" not found');
  });

  it("show an id that needs encoding as the caller wrote it, and the path encoded", async () => {
    await expect(getZone({ id: "a/b" })).rejects.toThrow('getZone: zone "a/b" not found (GET /v2/adex/zones/a%2Fb returned 404)');
  });
});

describe("spec, rule 5: placements exist only on display zones", () => {
  it("a placement of an rtb zone says the zone's type and the rule", async () => {
    const read = getZonePlacement({ zoneId: SEED_IDS.zones.rtb, id: SEED_IDS.zonePlacements.topBanner });
    await expect(read).rejects.toThrow(DataSourceNotDisplayZoneError);
    await expect(read).rejects.toThrow(
      'getZonePlacement: zone "1002" is of type "rtb", and placements exist only on zones of type "display" (spec, rule 5)',
    );
    await expect(read).rejects.toMatchObject({ zoneId: "1002", zoneType: "rtb", code: "ADP_ERR_NOT_DISPLAY_ZONE" });
    await expect(read).rejects.toHaveProperty("cause", expect.any(ApiValidationError));
  });

  it("a placement of a zone that does not exist names the zone", async () => {
    await expect(getZonePlacement({ zoneId: "999", id: "top-banner" })).rejects.toThrow(
      'getZonePlacement: zone "999" not found (GET /v2/adex/zones/999 returned 404)',
    );
  });

  it("an unknown placement of a display zone names the placement", async () => {
    await expect(getZonePlacement({ zoneId: SEED_IDS.zones.display, id: "footer" })).rejects.toThrow(
      'getZonePlacement: placement "footer" of zone "1001" not found (GET /v2/adex/zones/1001/placements/footer returned 404)',
    );
  });
});

describe("malformed responses name the field", () => {
  it("in a single record, relative to the record", async () => {
    const read = getZone({ id: "1999" });
    await expect(read).rejects.toThrow(DataSourceResponseError);
    await expect(read).rejects.toThrow(
      /^getZone: malformed response to GET \/v2\/adex\/zones\/1999: field "bid_floor" of the response did not parse: /,
    );
  });

  it("in a list, with the element's index", async () => {
    await expect(getSegments()).rejects.toThrow(
      /^getSegments: malformed response to GET \/v1\/hood\/segments: field "items\[1\]\.name" of the response did not parse: /,
    );
  });

  it("truncated JSON says the body did not parse", async () => {
    h.sim.setFaults({ rules: [{ kind: "malformed", op: 17, count: 1 }] });
    await expect(getCountries()).rejects.toThrow(
      "getCountries: malformed response to GET /v2/platform/countries: the response did not parse: 200 OK: response body is not valid JSON",
    );
  });
});

describe("other failures keep the client's error as cause", () => {
  it("a 500 after the client's attempts is a request error naming the request", async () => {
    h.sim.setFaults({ rules: [{ kind: "error500", op: 7, count: 1 }] });
    const read = getIntegration({ id: SEED_IDS.integrations.mailer });
    await expect(read).rejects.toThrow(DataSourceRequestError);
    await expect(read).rejects.toThrow(
      /^getIntegration: GET \/v2\/platform\/event-system\/integrations\/801 failed: 500 Internal Server Error/,
    );
    await expect(read).rejects.toHaveProperty("cause.status", 500);
  });

  it("a refused token is a request error too", async () => {
    configureDataSources({ baseUrl: h.sim.url, token: "wrong-token" });
    await expect(getCountries()).rejects.toThrow(/^getCountries: GET \/v2\/platform\/countries failed: 401 Unauthorized/);
  });

  it("a base URL the client refuses is a request error naming the request, and nothing is sent", async () => {
    configureDataSources({ baseUrl: "http://api.example.com", token: DEMO_TOKEN });
    const before = sent();
    const read = getCountries();
    await expect(read).rejects.toThrow(DataSourceRequestError);
    await expect(read).rejects.toThrow(
      /^getCountries: GET \/v2\/platform\/countries failed: refusing to send the API token over plain http:\/\//,
    );
    await expect(read).rejects.toHaveProperty("cause", expect.any(ApiConfigError));
    expect(sent()).toBe(before);
  });
});

test("a padded id is sent as given, percent-encoded: the spec rules nothing out about an id's content", async () => {
  const before = sent();
  await expect(getZone({ id: " 1001" })).rejects.toThrow(/%201001|not found/i);
  expect(sent()).toBe(before + 1);
});

describe("invalid arguments are refused before anything is sent", () => {
  it.each([
    ["an empty id", () => getZone({ id: "" }), "getZone: invalid arguments: id: must not be empty"],
    ["a missing id", () => getZone({} as never), "getZone: invalid arguments: id: is required"],
    ["a number id", () => getZone({ id: 1001 as never }), "getZone: invalid arguments: id: must be a string"],
    ["a dot-dot id", () => getZone({ id: ".." }), 'getZone: invalid arguments: id: path parameter "id" must not be ".."'],
    [
      "a misspelt argument",
      () => getContainerModal({ containerid: "100", id: "4001" } as never),
      'getContainerModal: invalid arguments: containerId: is required; unknown argument "containerid" (expects containerId, id, query)',
    ],
    [
      "fields where the operation takes none",
      () => getSegments({ fields: ["x"] } as never),
      'getSegments: invalid arguments: unknown argument "fields" (expects query)',
    ],
    [
      "a query where the operation takes none (spec, rule 9: op 7)",
      () => getIntegration({ id: "801", query: { a: "b" } } as never),
      'getIntegration: invalid arguments: unknown argument "query" (expects id)',
    ],
    [
      "fields smuggled through query",
      () => getZone({ id: "1001", query: { fields: "account,creator" } }),
      'getZone: invalid arguments: query: use the "fields" argument, not query.fields',
    ],
    [
      "a query value that is not a string",
      () => getCountries({ query: { page: 2 as never } }),
      "getCountries: invalid arguments: query.page: query values must be strings",
    ],
    [
      "arguments that are not an object",
      () => getCountries("all" as never),
      "getCountries: invalid arguments: arguments must be an object",
    ],
  ])("%s", async (_what, read, message) => {
    const before = sent();
    const result = read();
    await expect(result).rejects.toThrow(DataSourceArgumentError);
    await expect(result).rejects.toThrow(message);
    expect(sent()).toBe(before);
  });
});

describe("missing credentials", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("name every way to provide them, and nothing is sent", async () => {
    configureDataSources({});
    delete process.env.ADPLATFORM_BASE_URL;
    delete process.env.ADPLATFORM_TOKEN;
    const before = sent();
    const read = getCountries();
    await expect(read).rejects.toThrow(DataSourceCredentialsError);
    await expect(read).rejects.toThrow(
      "getCountries: no API base URL configured: set it with `pulumi config set adplatform:baseUrl <value>`, " +
        "the ADPLATFORM_BASE_URL environment variable, or configureDataSources({ baseUrl }); " +
        "no API token configured: set it with `pulumi config set --secret adplatform:token <value>`, " +
        "the ADPLATFORM_TOKEN environment variable, or configureDataSources({ token })",
    );
    expect(sent()).toBe(before);
  });

  it("the environment is used when nothing else is set", async () => {
    configureDataSources({});
    process.env.ADPLATFORM_BASE_URL = h.sim.url;
    process.env.ADPLATFORM_TOKEN = DEMO_TOKEN;
    await expect(getCountries()).resolves.toMatchObject({ total: 249 });
  });
});

describe("names and codes", () => {
  it("every class states its own name and code", () => {
    const errors: [DataSourceError, string, string][] = [
      [new DataSourceArgumentError("getZone", ["id: must not be empty"]), "DataSourceArgumentError", "ADP_ERR_REQUEST_INVALID"],
      [new DataSourceCredentialsError("getZone", "no API token configured"), "DataSourceCredentialsError", "ADP_ERR_CONFIG"],
      [
        new DataSourceNotFoundError("getZone", 'zone "999"', "GET /v2/adex/zones/999 returned 404"),
        "DataSourceNotFoundError",
        "ADP_ERR_NOT_FOUND",
      ],
      [new DataSourceNotDisplayZoneError("getZonePlacement", "1002", "rtb"), "DataSourceNotDisplayZoneError", "ADP_ERR_NOT_DISPLAY_ZONE"],
      [new DataSourceResponseError("getZone", "malformed response"), "DataSourceResponseError", "ADP_ERR_RESPONSE"],
      [new DataSourceRequestError("getZone", "GET /v2/adex/zones/1 failed"), "DataSourceRequestError", "ADP_ERR_REQUEST_FAILED"],
    ];
    for (const [error, name, code] of errors) {
      expect({ name: error.name, code: error.code }).toEqual({ name, code });
      expect(error.message.startsWith(`${error.functionName}: `)).toBe(true);
    }
    expect(new Set(errors.map(([e]) => e.code)).size).toBe(errors.length);
  });

  it("are one class; the former classes' names take, by instanceof, the errors of their code", () => {
    const notFound = new DataSourceNotFoundError("getZone", 'zone "999"', "GET /v2/adex/zones/999 returned 404");
    expect(notFound).toBeInstanceOf(DataSourceError);
    expect(notFound).toBeInstanceOf(DataSourceNotFoundError);
    expect(notFound).not.toBeInstanceOf(DataSourceRequestError);
    expect({ subject: notFound.subject, detail: notFound.detail }).toEqual({
      subject: 'zone "999"',
      detail: "GET /v2/adex/zones/999 returned 404",
    });
    const built = new DataSourceError("getZone", "r", { code: "ADP_ERR_NOT_FOUND" });
    expect(built).toBeInstanceOf(DataSourceNotFoundError);
    expect(built.name).toBe("DataSourceNotFoundError");
    expect(new DataSourceError("getZone", "r").code).toBe("ADP_ERR_REQUEST_FAILED");
  });

  it("a reason the client has too has the client's code", () => {
    const context = { operation: { name: "getZone", number: 13 }, method: "GET", path: "/v2/adex/zones/1" };
    expect(new DataSourceArgumentError("getZone", []).code).toBe(new ApiRequestValidationError("bad", context).code);
    expect(new DataSourceCredentialsError("getZone", "").code).toBe(new ApiConfigError("token", "no token").code);
    expect(new DataSourceNotFoundError("getZone", "", "").code).toBe(new ApiNotFoundError({ ...context, status: 404 }).code);
    expect(new DataSourceResponseError("getZone", "").code).toBe(new ApiResponseError("bad", { ...context, status: 200 }).code);
  });
});
