/**
 * Error answers of the simulator: 401, 400 for invalid bodies (validated with the catalog's request
 * schemas), 404, 405, 413, and a server that keeps serving after garbage.
 */
import { connect } from "node:net";
import { OPERATIONS } from "../../provider/catalog";
import { DEFAULT_MAX_BODY_BYTES, SEED_IDS } from "../../simulator";
import { type Harness, type Reply, UUID, startHarness } from "../helpers/simulatorHarness";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

/** spec, Errors: `{code, title, message, trace_id (UUID)}`. */
function expectErrorBody(reply: Reply, status: number, message?: RegExp): void {
  expect(reply.status).toBe(status);
  expect(reply.headers["content-type"]).toMatch(/^application\/json/);
  const body = reply.json();
  expect(body).toEqual({ code: status, title: expect.any(String), message: expect.any(String), trace_id: expect.stringMatching(UUID) });
  if (message) expect(body.message).toMatch(message);
}

/** The `X-RateLimit-*` headers of an answer (spec, Limits 5), absent ones left out. */
function rateHeaders(reply: Reply): Record<string, string> {
  return Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name.startsWith("x-ratelimit-")));
}
/** Class C windows nothing has used, at the fake clock: the burst window is the tighter one. */
const UNUSED_WINDOWS = { "x-ratelimit-limit": "10", "x-ratelimit-remaining": "10", "x-ratelimit-reset": "1" };

const zone = `/v2/adex/zones/${SEED_IDS.zones.display}`;
const groups = "/v2/adex/groups";
const strategies = "/v2/adex/bid-strategies";
const modifier = `/v2/adex/bid-modifiers/${SEED_IDS.bidModifiers.countries}`;
const variation = `/v2/adex/campaign-ab-tests/${SEED_IDS.abTests.homepage}/variations/${SEED_IDS.abTestVariations.homepageVariant}`;

describe("authentication", () => {
  it.each([
    ["no Authorization header", { token: null }],
    ["an unknown token", { token: "not-a-token" }],
    ["another scheme", { token: null, headers: { authorization: "Basic ZGVtbzpkZW1v" } }],
    ["an empty bearer token", { token: null, headers: { authorization: "Bearer " } }],
  ])("answers 401 to %s, with the rate headers of windows nothing has used", async (_what, options) => {
    const reply = await h.call("GET", zone, options);
    expectErrorBody(reply, 401);
    expect(reply.headers["www-authenticate"]).toBe("Bearer");
    expect(rateHeaders(reply)).toEqual(UNUSED_WINDOWS);
  });

  it("accepts the scheme name in any case", async () => {
    const reply = await h.call("GET", zone, { token: null, headers: { authorization: "bearer demo-token" } });
    expect(reply.status).toBe(200);
  });

  it("a 401 costs no budget of any account", async () => {
    await h.call("GET", zone, { token: "nope" });
    expect(h.sim.windows().classes).toEqual({});
  });
});

describe("400: the request body is not valid", () => {
  it.each([
    [
      "an unknown strategy (spec, rule 3)",
      strategies,
      { name: "s", pricing_model: "cpc", strategy: "random", value: 1, max_value: 2 },
      /strategy/,
    ],
    ["a bad colour", groups, { name: "g", color: "red", items: ["1"] }, /color/],
    ["a missing required field", groups, { name: "g", color: "#aabbcc" }, /items/],
    ["an empty PATCH of op 1", modifier, {}, /at least one field/],
    ["an empty PATCH of op 4", variation, {}, /at least one field/],
    ["a non-decimal bid modifier value", modifier, { value: "abc" }, /value/],
    ["an unknown field", modifier, { name: "x", bogus: 1 }, /bogus|unrecognized/i],
    ["a JSON array instead of an object", groups, [1, 2], /./],
  ])("for %s", async (_what, path, body, message) => {
    const method = path === groups || path === strategies ? "POST" : "PATCH";
    const reply = await h.call(method, path, { body });
    expectErrorBody(reply, 400, message);
    expect(reply.json().message).toMatch(/^The request body is not valid/);
  });

  it("for malformed JSON", async () => {
    const reply = await h.call("POST", groups, { rawBody: '{"name": "g", ', contentType: "application/json" });
    expectErrorBody(reply, 400, /malformed JSON/);
  });

  it("for a body with another content type", async () => {
    const reply = await h.call("POST", groups, { rawBody: "name=g", contentType: "application/x-www-form-urlencoded" });
    expectErrorBody(reply, 400, /Content-Type must be application\/json/);
  });

  it("for a missing body", async () => {
    const reply = await h.call("PATCH", modifier);
    expectErrorBody(reply, 400, /body is required/);
  });

  it("accepts a content type with parameters", async () => {
    const reply = await h.call("PATCH", modifier, { rawBody: '{"name":"ok"}', contentType: "application/json; charset=utf-8" });
    expect(reply.status).toBe(204);
  });

  it("leaves the store unchanged and still counts against the windows", async () => {
    const before = h.sim.state();
    const reply = await h.call("POST", groups, { body: { name: "g", color: "nope", items: ["1"] } });
    expect(reply.status).toBe(400);
    expect(reply.headers["x-ratelimit-remaining"]).toBe("9");
    expect(h.sim.state()).toEqual(before);
  });
});

describe("404 and 405", () => {
  it("unknown ids are a 404 with the error body", async () => {
    expectErrorBody(await h.call("GET", "/v2/adex/zones/424242"), 404, /424242/);
    expectErrorBody(await h.call("GET", "/v2/platform/event-system/integrations/0"), 404);
  });

  it("an unknown path is a 404", async () => {
    expectErrorBody(await h.call("GET", "/v2/adex/unknown"), 404);
    expectErrorBody(await h.call("GET", "/v2/adex/zones/1001/"), 404);
  });

  it("a known path with another method is a 405 with Allow", async () => {
    const reply = await h.call("DELETE", zone);
    expectErrorBody(reply, 405);
    expect(reply.headers.allow).toBe("GET");
    const post = await h.call("GET", groups);
    expect(post.headers.allow).toBe("POST");
  });
});

describe("413 and garbage", () => {
  it("answers 413 to a body larger than the cap, then keeps serving", async () => {
    const big = Buffer.alloc(DEFAULT_MAX_BODY_BYTES + 1, 0x61);
    const reply = await h.call("POST", groups, { rawBody: big, contentType: "application/json" });
    expectErrorBody(reply, 413);
    expect((await h.call("GET", zone)).status).toBe(200);
  });

  it("honours a smaller maxBodyBytes option", async () => {
    const small = await startHarness({ maxBodyBytes: 64 });
    try {
      const reply = await small.call("PATCH", modifier, { body: { name: "x".repeat(100) } });
      expectErrorBody(reply, 413);
      expect(small.sim.windows().classes).toEqual({});
    } finally {
      await small.close();
    }
  });

  it("answers 400 to malformed HTTP and keeps serving", async () => {
    const url = new URL(h.sim.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write("THIS IS NOT HTTP\r\n\r\n"));
      let data = "";
      socket.on("data", (chunk) => (data += chunk.toString()));
      socket.on("end", () => resolve(data));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toMatch(/"code":400/);
    expect((await h.call("GET", zone)).status).toBe(200);
  });

  it("survives a client that disconnects in the middle of a body", async () => {
    const url = new URL(h.sim.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST ${groups} HTTP/1.1\r\n` +
            "Host: x\r\n" +
            "Authorization: Bearer demo-token\r\n" +
            "Content-Type: application/json\r\n" +
            "Content-Length: 100\r\n" +
            '\r\n{"na',
          () => socket.destroy(),
        );
      });
      socket.on("close", () => resolve());
    });
    expect((await h.call("GET", zone)).status).toBe(200);
    expect(h.sim.state().campaignGroups).toHaveLength(2);
  });
});

describe("every answer that did not hit the limit carries X-RateLimit-* (spec, Limits 5)", () => {
  it("a badly percent-encoded path: 400 with the headers, counted in no window", async () => {
    const reply = await h.call("GET", "/v2/adex/zones/%E0%A4%A");
    expectErrorBody(reply, 400, /percent-encoding/);
    expect(rateHeaders(reply)).toEqual(UNUSED_WINDOWS);
    expect(h.sim.windows().classes).toEqual({});
  });

  it.each([
    ["an unknown path (404)", "GET", "/v2/adex/unknown", {}, 404],
    ["a known path with another method (405)", "DELETE", zone, {}, 405],
    ["a bad path (400)", "GET", "/v2/adex/zones/%E0%A4%A", {}, 400],
    [
      "a body over the cap (413)",
      "POST",
      groups,
      { rawBody: Buffer.alloc(DEFAULT_MAX_BODY_BYTES + 1, 0x61), contentType: "application/json" },
      413,
    ],
  ])("%s describes the account's windows as they stand, without counting", async (_what, method, path, options, status) => {
    expect((await h.call("GET", zone)).headers["x-ratelimit-remaining"]).toBe("9");
    const reply = await h.call(method, path, options);
    expect(reply.status).toBe(status);
    expect(rateHeaders(reply)).toEqual({ "x-ratelimit-limit": "10", "x-ratelimit-remaining": "9", "x-ratelimit-reset": "1" });
    expect(h.sim.windows().classes.C?.burst.used).toBe(1);
  });

  it("an injected 500 and a malformed JSON body carry the headers of their admission", async () => {
    h.sim.setFaults({ rules: [{ kind: "error500", op: 13, count: 1 }] });
    const failed = await h.call("GET", zone);
    expect(failed.status).toBe(500);
    expect(failed.headers["x-ratelimit-remaining"]).toBe("9");
    const malformed = await h.call("POST", groups, { rawBody: "{", contentType: "application/json" });
    expect(malformed.status).toBe(400);
    expect(malformed.headers["x-ratelimit-remaining"]).toBe("8");
  });

  it("a 500 from a failure before admission carries the standing headers", async () => {
    const [first, ...rest] = OPERATIONS;
    const failing = {
      ...first,
      cost: () => {
        throw new Error("cost rule failed");
      },
    };
    const broken = await startHarness({ operations: [failing, ...rest] });
    try {
      const reply = await broken.call("PATCH", modifier, { body: { name: "x" } });
      expectErrorBody(reply, 500, /cost rule failed/);
      expect(rateHeaders(reply)).toEqual(UNUSED_WINDOWS);
    } finally {
      await broken.close();
    }
  });

  it("a 429 carries none", async () => {
    h.sim.setFaults({ rules: [{ kind: "rateLimit", op: 13, count: 1 }] });
    const reply = await h.call("GET", zone);
    expect(reply.status).toBe(429);
    expect(rateHeaders(reply)).toEqual({});
  });
});
