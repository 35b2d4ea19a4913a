/**
 * The client against scripted `node:http` servers on port 0: request building, retries, timeouts,
 * the size cap and error bodies. Each test counts what reached the server.
 *
 * Longer than our ~350-line norm because it mirrors `provider/client/apiClient.ts`, the request
 * engine, with one case per rule it enforces; the retry policy, limiter, errors and connection have
 * test files of their own.
 */
import { createServer } from "node:net";
import {
  type ApiClientOptions,
  ApiConfigError,
  ApiNetworkError,
  ApiRateLimitError,
  ApiRequestValidationError,
  ApiResponseError,
  ApiServerError,
  ApiValidationError,
  closeApiClients,
  getApiClient,
} from "../../../provider/client";
import { FakeClock } from "../../helpers/fakeClock";
import { type ScriptedServer, envelopeOf, json, startScriptedServer } from "../../helpers/scriptedServer";
import { waitFor } from "../../helpers/waitFor";

const TOKEN = "demo-token";
const ZONE = { id: "1001", name: "Zone" };
const STRATEGY = { name: "s", pricing_model: "cpc", strategy: "exact", value: 1, max_value: 2 };

let server: ScriptedServer | undefined;

afterEach(async () => {
  await closeApiClients();
  await server?.close();
  server = undefined;
});

/** A client of `server` with fast, deterministic retries. */
function clientOf(s: ScriptedServer, options: Partial<ApiClientOptions> = {}) {
  return getApiClient({
    baseUrl: s.url,
    token: TOKEN,
    retryOptions: { baseDelayMs: 10, maxDelayMs: 50, jitterWindowMs: 20 },
    random: () => 0.5,
    ...options,
  });
}

describe("api client, request building", () => {
  it("sends the path, fields, query, bearer token and JSON body the catalog describes", async () => {
    server = await startScriptedServer((req, res) =>
      req.method === "GET" ? json(res, 200, envelopeOf(ZONE)) : json(res, 201, { id: "9" }),
    );
    const client = clientOf(server);
    const zone = await client.call("getZone", { pathParams: { id: "a/b" }, fields: ["account", "creator"], query: { q: "x y" } });
    expect(zone.status).toBe(200);
    expect(zone.body).toEqual({ total: 1, items: [ZONE] });
    const created = await client.call("createBidStrategy", { body: STRATEGY });
    expect(created).toMatchObject({ status: 201, body: { id: "9" } });

    const [get, post] = server.requests;
    expect(get!.url).toBe("/v2/adex/zones/a%2Fb?q=x+y&fields=account,creator");
    expect(get!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(get!.headers["content-type"]).toBeUndefined();
    expect(post!.url).toBe("/v2/adex/bid-strategies");
    expect(post!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(post!.body)).toEqual(STRATEGY);
  });

  it("puts the base URL's path prefix before every operation path", async () => {
    server = await startScriptedServer((_req, res) => json(res, 200, envelopeOf(ZONE)));
    await getApiClient({ baseUrl: `${server.url}/api/`, token: TOKEN }).call("getZone", { pathParams: { id: "1" } });
    expect(server.requests[0]!.url).toBe("/api/v2/adex/zones/1");
  });

  it("returns undefined for a 204", async () => {
    server = await startScriptedServer((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const result = await clientOf(server).call("updateBidModifier", { pathParams: { id: "501" }, body: { name: "n" } });
    expect(result).toMatchObject({ status: 204, body: undefined });
  });

  it("refuses an invalid body before sending anything", async () => {
    server = await startScriptedServer((_req, res) => json(res, 201, { id: "1" }));
    const error = await clientOf(server)
      .call("createBidStrategy", { body: { ...STRATEGY, strategy: "sideways" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestValidationError);
    expect(error).toBeInstanceOf(ApiValidationError);
    expect((error as ApiRequestValidationError).issues[0]?.path).toBe("strategy");
    expect((error as ApiRequestValidationError).status).toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });

  it("refuses missing path parameters, fields on operations without them, and unknown names", async () => {
    server = await startScriptedServer((_req, res) => json(res, 200, envelopeOf(ZONE)));
    const client = clientOf(server);
    await expect(client.call("getZone", {})).rejects.toThrow(ApiRequestValidationError);
    await expect(client.call("getSearchAlgorithm", { pathParams: { id: "1" }, fields: ["x"] })).rejects.toThrow(/takes no `fields`/);
    await expect(client.call("noSuchOperation")).rejects.toThrow(/no operation named "noSuchOperation"/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("api client, retries", () => {
  it("retries a 429 after Retry-After and succeeds", async () => {
    server = await startScriptedServer((_req, res, i) =>
      i === 0 ? json(res, 429, { code: 429 }, { "retry-after": "0.05" }) : json(res, 200, envelopeOf(ZONE)),
    );
    const result = await clientOf(server).call("getZone", { pathParams: { id: "1001" } });
    expect(result.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ["the burst window", "10", "1"],
    ["the steady window", "150", "2"],
  ])("sends a call refused about %s again when that window ends, not after Retry-After and jitter", async (_, limit, retryAfter) => {
    const clock = new FakeClock(Date.now());
    const end = clock.now() + 200;
    server = await startScriptedServer((_req, res, i) =>
      i === 1
        ? // The window filled with another machine's requests: Retry-After is whole seconds, rounded up.
          json(res, 429, { code: 429 }, { "retry-after": retryAfter })
        : json(res, 200, envelopeOf(ZONE), {
            "x-ratelimit-limit": limit,
            "x-ratelimit-remaining": "1",
            "x-ratelimit-reset": String(Math.max(0, end - clock.now()) / 1000),
          }),
    );
    const client = clientOf(server, {
      retryOptions: { jitterWindowMs: 1_000 },
      limiterOptions: { clock, burstWindowMs: 1_000, steadyWindowMs: 60_000, shareAcrossProcesses: false },
    });
    await client.call("getZone", { pathParams: { id: "1001" } });
    const refused = client.call("getZone", { pathParams: { id: "1001" } });
    await waitFor(() => server!.requests.length === 2 && client.limiter.snapshot().inFlight === 0);
    // The first answer gave the window's end, 200 ms on: the account pauses until then, and the
    // refused call goes then, not Retry-After and a jitter later.
    await clock.advance(200);
    await waitFor(() => server!.requests.length === 3, 400);
    await expect(refused).resolves.toMatchObject({ status: 200 });
  });

  it("retries a POST after a 429: the server did not carry it out", async () => {
    server = await startScriptedServer((_req, res, i) =>
      i === 0 ? json(res, 429, {}, { "retry-after": "0" }) : json(res, 201, { id: "7" }),
    );
    await expect(clientOf(server).call("createBidStrategy", { body: STRATEGY })).resolves.toMatchObject({ status: 201 });
    expect(server.requests).toHaveLength(2);
  });

  it("rides out more 429s than maxAttempts, in both forms, a POST included: a 429 is not an attempt", async () => {
    // Eight refusals, alternating Retry-After seconds and -1, then the create; one attempt allowed.
    server = await startScriptedServer((_req, res, i) => {
      if (i < 8) return json(res, 429, {}, { "retry-after": i % 2 === 0 ? "0" : "-1" });
      return json(res, 201, { id: "7" });
    });
    const lines: string[] = [];
    const client = clientOf(server, {
      retryOptions: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5, jitterWindowMs: 5 },
      onDebug: (l) => lines.push(l),
    });
    await expect(client.call("createBidStrategy", { body: STRATEGY })).resolves.toMatchObject({ status: 201, body: { id: "7" } });
    expect(server.requests).toHaveLength(9);
    // The policy's waits after Retry-After seconds carry the jitter and count the 429s in a row (a
    // Retry-After within the burst window is waited in the limiter's pause instead).
    expect(lines.some((l) => /retry .*: 429, Retry-After 0 ms \(\+\d+ ms jitter, 7 429s in a row\)/.test(l))).toBe(true);
  });

  it("gives up with ApiRateLimitError once 429s outlast ADPLATFORM_RETRY_BUDGET_MS, and says which setting to raise", async () => {
    server = await startScriptedServer((_req, res) => json(res, 429, {}, { "retry-after": "0" }));
    const error = await clientOf(server, { env: { ADPLATFORM_RETRY_BUDGET_MS: "150" } })
      .call("getZone", { pathParams: { id: "1" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 0, concurrency: false });
    const message = (error as ApiRateLimitError).message;
    expect(message).toContain("the retry budget of 150 ms from the first send ran out");
    expect(message).toContain("refused with 429");
    expect(message).toContain("set ADPLATFORM_RETRY_BUDGET_MS or retryOptions.maxTotalMs to wait longer");
    expect((error as ApiRateLimitError).attempts).toBe(server.requests.length);
  });

  it("lowers its concurrency on Retry-After: -1 and still completes every request", async () => {
    let inFlight = 0;
    let refused = 0;
    server = await startScriptedServer((_req, res) => {
      // The server allows 2 in flight; each request takes 20 ms.
      if (inFlight >= 2) {
        refused += 1;
        json(res, 429, {}, { "retry-after": "-1" });
        return;
      }
      inFlight += 1;
      setTimeout(() => {
        inFlight -= 1;
        json(res, 200, envelopeOf(ZONE));
      }, 20);
    });
    const client = clientOf(server, { limiterOptions: { concurrency: { initial: 6, min: 1, max: 6 } } });
    const caps: number[] = [];
    const observe = client.limiter.observe.bind(client.limiter);
    jest.spyOn(client.limiter, "observe").mockImplementation((permit, observation) => {
      observe(permit, observation);
      caps.push(client.limiter.snapshot().concurrency);
    });
    const results = await Promise.all(Array.from({ length: 8 }, () => client.call("getZone", { pathParams: { id: "1001" } })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(refused).toBeGreaterThan(0);
    expect(Math.min(...caps)).toBeLessThanOrEqual(3);
  });

  it("retries GET and PATCH through 500s", async () => {
    server = await startScriptedServer((req, res, i) => {
      if (i % 3 !== 2) return json(res, 500, { code: 500, title: "Internal Server Error", trace_id: "t" });
      if (req.method === "GET") return json(res, 200, envelopeOf(ZONE));
      res.writeHead(204);
      res.end();
    });
    const client = clientOf(server);
    await expect(client.call("getZone", { pathParams: { id: "1001" } })).resolves.toMatchObject({ status: 200 });
    await expect(client.call("updateBidModifier", { pathParams: { id: "501" }, body: { name: "x" } })).resolves.toMatchObject({
      status: 204,
    });
    expect(server.requests.map((r) => r.method)).toEqual(["GET", "GET", "GET", "PATCH", "PATCH", "PATCH"]);
  });

  it("does not repeat a POST after a 500", async () => {
    server = await startScriptedServer((_req, res) => json(res, 500, { code: 500, title: "Internal Server Error", trace_id: "5e1c" }));
    const error = await clientOf(server)
      .call("createBidStrategy", { body: STRATEGY })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiServerError);
    expect(error).toMatchObject({ status: 500, traceId: "5e1c", attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("does not repeat a POST when the connection is reset after sending", async () => {
    server = await startScriptedServer((_req, res) => res.socket?.destroy());
    const error = await clientOf(server)
      .call("createCampaignGroup", { body: { name: "g", color: "#ffffff", items: ["c1"] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect((error as ApiNetworkError).mayHaveReachedServer).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a GET when the connection is reset after sending", async () => {
    server = await startScriptedServer((_req, res, i) => (i === 0 ? res.socket?.destroy() : json(res, 200, envelopeOf(ZONE))));
    await expect(clientOf(server).call("getZone", { pathParams: { id: "1" } })).resolves.toMatchObject({ status: 200 });
    expect(server.requests).toHaveLength(2);
  });

  it("retries a POST when the connection was refused", async () => {
    const port = await freePort();
    let started: Promise<ScriptedServer> | undefined;
    const client = getApiClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: TOKEN,
      retryOptions: { baseDelayMs: 100, maxDelayMs: 200 },
      random: () => 0.5,
      // Nothing listens until the first attempt has been refused.
      onDebug: (line) => {
        if (line.includes("ECONNREFUSED") && !started) {
          started = startScriptedServer((_req, res) => json(res, 201, { id: "42" }), port);
        }
      },
    });
    const result = await client.call("createBidStrategy", { body: STRATEGY });
    server = await started!;
    expect(result).toMatchObject({ status: 201, body: { id: "42" } });
    expect(server.requests).toHaveLength(1);
  });

  it("retries a GET whose body arrives damaged, but not a POST", async () => {
    const truncated = (res: import("node:http").ServerResponse, status: number) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end('{"total": 1, "items": [{"id"');
    };
    server = await startScriptedServer((req, res, i) => {
      if (req.method === "POST") return truncated(res, 201);
      return i === 0 ? truncated(res, 200) : json(res, 200, envelopeOf(ZONE));
    });
    const client = clientOf(server);
    await expect(client.call("getZone", { pathParams: { id: "1" } })).resolves.toMatchObject({ status: 200 });
    const error = await client.call("createBidStrategy", { body: STRATEGY }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect(server.requests.map((r) => r.method)).toEqual(["GET", "GET", "POST"]);
  });
});

describe("api client, timeouts and size", () => {
  // undici's headers and body timers tick about once a second, so this test takes ~2 s.
  it("times out waiting for headers and retries a GET, then reports the timeout", async () => {
    server = await startScriptedServer(() => undefined); // never answers
    const error = await clientOf(server, { timeouts: { headersMs: 100 }, retryOptions: { maxAttempts: 2, baseDelayMs: 1 } })
      .call("getZone", { pathParams: { id: "1" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ timeout: "headers", mayHaveReachedServer: true, attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it("does not repeat a POST that timed out", async () => {
    server = await startScriptedServer(() => undefined);
    const error = await clientOf(server, { timeouts: { requestMs: 150 } })
      .call("createBidStrategy", { body: STRATEGY })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ApiNetworkError", timeout: "request", mayHaveReachedServer: true });
    expect(server.requests).toHaveLength(1);
  });

  it("ends a response that trickles past the whole-request timeout", async () => {
    server = await startScriptedServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"total": 1, "items": [');
      const drip = setInterval(() => (res.writableEnded ? clearInterval(drip) : res.write(" ")), 20);
      res.on("close", () => clearInterval(drip));
    });
    const error = await clientOf(server, { timeouts: { requestMs: 200, bodyMs: 10_000 }, retryOptions: { maxAttempts: 1 } })
      .call("getZone", { pathParams: { id: "1" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ timeout: "request" });
  });

  it("rejects a body over the size cap, declared or streamed, without retrying", async () => {
    const big = { total: 1, items: [{ id: "1", name: "x".repeat(4096) }] };
    server = await startScriptedServer((_req, res, i) => {
      if (i === 0) return json(res, 200, big); // with content-length
      res.writeHead(200, { "content-type": "application/json" }); // chunked, no length
      res.end(JSON.stringify(big));
    });
    const client = clientOf(server, { maxResponseBytes: 1024 });
    for (let i = 0; i < 2; i += 1) {
      const error = await client.call("getZone", { pathParams: { id: "1" } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiResponseError);
      expect((error as Error).message).toMatch(/exceeds the 1024-byte limit/);
    }
    expect(server.requests).toHaveLength(2);
  });
});

describe("api client, error bodies", () => {
  it("parses a 400 body into the error's fields and message", async () => {
    const traceId = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
    server = await startScriptedServer((_req, res) =>
      json(res, 400, { code: 400, title: "Bad Request", message: "The request body is not valid", trace_id: traceId }),
    );
    const error = await clientOf(server)
      .call("createBidStrategy", { body: STRATEGY })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiValidationError);
    expect((error as Error).message).toBe(
      `createBidStrategy (POST /v2/adex/bid-strategies) failed: 400 Bad Request: The request body is not valid (trace_id ${traceId})`,
    );
    expect(error).toMatchObject({
      name: "ApiValidationError",
      code: "ADP_ERR_VALIDATION",
      status: 400,
      title: "Bad Request",
      serverMessage: "The request body is not valid",
      traceId,
      operation: { name: "createBidStrategy", number: 3 },
      method: "POST",
      path: "/v2/adex/bid-strategies",
    });
  });

  it("parses a 500 that carries message and no trace_id", async () => {
    server = await startScriptedServer((_req, res) =>
      json(res, 500, { code: 500, title: "Internal Server Error", message: "database unavailable" }),
    );
    const error = await clientOf(server, { retryOptions: { maxAttempts: 1 } })
      .call("getZone", { pathParams: { id: "1001" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiServerError);
    expect((error as Error).message).toBe("getZone (GET /v2/adex/zones/1001) failed: 500 Internal Server Error: database unavailable");
    expect((error as ApiServerError).traceId).toBeUndefined();
  });

  it("names the field of a response that does not match the schema", async () => {
    server = await startScriptedServer((_req, res) => json(res, 200, { total: 1, items: [{ id: { nested: true } }] }));
    const error = await clientOf(server)
      .call("getZone", { pathParams: { id: "1" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect((error as ApiResponseError).field).toBe("items.0.id");
    expect(server.requests).toHaveLength(1);
  });

  it("maps 401, 404 and other statuses to their classes", async () => {
    const statuses = [401, 403, 404, 409];
    server = await startScriptedServer((_req, res, i) => json(res, statuses[i]!, { code: statuses[i] }));
    const client = clientOf(server);
    const names = [];
    for (let i = 0; i < statuses.length; i += 1) {
      const error = (await client.call("getZone", { pathParams: { id: "1" } }).catch((e: unknown) => e)) as Error;
      names.push(error.name);
    }
    expect(names).toEqual(["ApiAuthError", "ApiAuthError", "ApiNotFoundError", "ApiError"]);
  });
});

describe("api client, configuration", () => {
  it("refuses to send a token over plain http to a host that is not loopback", () => {
    expect(() => getApiClient({ baseUrl: "http://api.example.com", token: TOKEN })).toThrow(ApiConfigError);
    expect(() => getApiClient({ baseUrl: "https://api.example.com", token: TOKEN })).not.toThrow();
  });

  it("returns one shared client per base URL and token", async () => {
    server = await startScriptedServer((_req, res) => json(res, 200, envelopeOf(ZONE)));
    const a = getApiClient({ baseUrl: server.url, token: TOKEN });
    expect(getApiClient({ baseUrl: `${server.url}/`, token: TOKEN })).toBe(a);
    expect(getApiClient({ baseUrl: server.url, token: "second-token" })).not.toBe(a);
    expect(getApiClient({ baseUrl: server.url, token: "second-token" }).limiter).not.toBe(a.limiter);
  });
});

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as import("node:net").AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
