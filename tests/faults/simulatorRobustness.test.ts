/**
 * The simulator survives malformed requests with the spec's error shapes and keeps serving.
 * `tests/simulator/errors.test.ts` covers single 401/400/404/405/413 answers, malformed HTTP and a
 * client that disconnects; this file adds what a hostile or broken client can do beyond those:
 * deeply nested JSON, JSON of the wrong kind, streamed (chunked) bodies past the cap and past the
 * drain limit, bad percent-encoding, an oversized request line, garbage without auth, garbage on
 * the inspection surface, and a concurrent burst of all of it, after which the store and the
 * request log are exactly what the valid requests alone would leave.
 */
import { Readable } from "node:stream";
import { request } from "undici";
import { DEFAULT_MAX_BODY_BYTES, SEED_IDS, startSimulator, type RunningSimulator } from "../../simulator";

jest.setTimeout(60_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GROUPS = "/v2/adex/groups";
const ZONE = `/v2/adex/zones/${SEED_IDS.zones.display}`;
const AUTH = { authorization: "Bearer demo-token" };
const JSON_TYPE = { "content-type": "application/json" };

let sim: RunningSimulator;
beforeAll(async () => {
  // The subject is robustness, not rate limits: windows wide enough that no answer here is a 429.
  sim = await startSimulator({ limits: { C: { burst: 10_000, steady: 100_000 } } });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

interface Answer {
  status: number | "connection closed";
  body?: Record<string, unknown>;
}

async function send(method: string, path: string, headers: Record<string, string>, body?: string | Readable): Promise<Answer> {
  try {
    const response = await request(`${sim.url}${path}`, { method: method as "POST", headers, body: body ?? null });
    const text = await response.body.text();
    return { status: response.statusCode, ...(text ? { body: JSON.parse(text) as Record<string, unknown> } : {}) };
  } catch {
    return { status: "connection closed" };
  }
}

/** spec, Errors: `{code, title, message, trace_id (UUID)}` with `code` equal to the status. */
function expectErrorShape(answer: Answer, status: number, message?: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({
    code: status,
    title: expect.any(String),
    message: expect.any(String),
    trace_id: expect.stringMatching(UUID),
  });
  if (message) expect(answer.body!.message).toMatch(message);
}

/** The server still answers an API read, the inspection surface, and a valid create. */
async function expectStillServing(): Promise<void> {
  expect((await send("GET", ZONE, AUTH)).status).toBe(200);
  expect((await send("GET", "/_sim/requests", {})).status).toBe(200);
  expect((await send("GET", "/_sim/state", {})).status).toBe(200);
  const created = await send("POST", GROUPS, { ...AUTH, ...JSON_TYPE }, JSON.stringify({ name: "After", color: "#000000", items: ["1"] }));
  expect(created.status).toBe(201);
}

/** `size` bytes of a JSON-looking body, streamed in 64 KiB chunks without a Content-Length. */
function chunked(size: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < size; sent += chunk.length) yield chunk;
    })(),
  );
}

const nested = (levels: number) => `{"name": ${"[".repeat(levels)}${"]".repeat(levels)}, "color": "#000000", "items": ["1"]}`;

describe("malformed requests get the spec's error shapes, and the simulator keeps serving", () => {
  it.each([
    ["JSON nested 200 000 levels deep", nested(200_000), /request body is not valid/],
    ["JSON null", "null", /request body is not valid/],
    ["a JSON array", "[]", /request body is not valid/],
    ["a JSON string", '"group"', /request body is not valid/],
    ["a JSON number", "42", /request body is not valid/],
    ["JSON with a trailing comma", '{"name":"x",}', /malformed JSON/],
    ["a UTF-8 byte-order mark before the JSON", '\ufeff{"name":"x","color":"#000000","items":["1"]}', /malformed JSON/],
  ])("%s: 400, nothing stored, the log still served", async (_what, body, message) => {
    expectErrorShape(await send("POST", GROUPS, { ...AUTH, ...JSON_TYPE }, body), 400, message);
    expect(sim.state().campaignGroups).toHaveLength(2);
    const log = await send("GET", "/_sim/requests", {});
    expect(log.status).toBe(200);
    expect((log.body as { byStatus: Record<string, number> }).byStatus).toEqual({ 400: 1 });
    await expectStillServing();
  });

  it("a streamed body without Content-Length past the cap: 413, then serving", async () => {
    const answer = await send("POST", GROUPS, { ...AUTH, ...JSON_TYPE }, chunked(DEFAULT_MAX_BODY_BYTES + 64 * 1024));
    expectErrorShape(answer, 413);
    await expectStillServing();
  });

  it("a streamed body past the drain limit: the connection is closed, then serving", async () => {
    const answer = await send("POST", GROUPS, { ...AUTH, ...JSON_TYPE }, chunked(70 * 1024 * 1024));
    // Either the 413 arrives before the server stops reading, or the connection is cut: never a 2xx.
    expect([413, "connection closed"]).toContain(answer.status);
    await expectStillServing();
  });

  it("garbage without auth is a 401 before the body is looked at, and nothing is logged for the account", async () => {
    for (const [headers, body] of [
      [JSON_TYPE, "{not json"],
      [{ "content-type": "text/plain" }, "name=x"],
      [{ authorization: "Bearer", ...JSON_TYPE }, "{}"],
      [{ authorization: "Bearer demo-token extra", ...JSON_TYPE }, "{}"],
    ] as const) {
      const answer = await send("POST", GROUPS, headers, body);
      expectErrorShape(answer, 401);
    }
    expect(sim.requests("demo").total).toBe(0);
    expect(sim.requests("anonymous").byStatus).toEqual({ 401: 4 });
    await expectStillServing();
  });

  it("a path segment that is not valid percent-encoding: 400, never routed", async () => {
    for (const path of ["/v2/adex/zones/%E0%A4%A", "/v2/adex/zones/%", "/v2/adex/zones/%zz"]) {
      expectErrorShape(await send("GET", path, AUTH), 400, /not valid percent-encoding/);
    }
    // Logged as matching no operation: the zone read (op 13) never ran.
    expect(sim.requests().operations.unmatched.byStatus).toEqual({ 400: 3 });
    expect(sim.requests().operations["13"]).toBeUndefined();
    await expectStillServing();
  });

  it("a request line past the header limit: a 400 body, and that connection alone is closed", async () => {
    const answer = await send("GET", `/v2/adex/zones/${"x".repeat(40_000)}`, AUTH);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 400, title: expect.any(String) });
    await expectStillServing();
  });

  it("garbage on the inspection surface: 400 with the error shape, settings unchanged", async () => {
    const before = await send("GET", "/_sim/faults", {});
    expectErrorShape(await send("POST", "/_sim/faults", JSON_TYPE, "{not json"), 400);
    expectErrorShape(await send("POST", "/_sim/faults", JSON_TYPE, '{"errorRate": 2}'), 400, /invalid fault settings/);
    expectErrorShape(await send("POST", "/_sim/faults", JSON_TYPE, '{"rules": [{"kind": "explode"}]}'), 400, /invalid fault settings/);
    expectErrorShape(await send("DELETE", "/_sim/objects/%E0%A4%A/1", {}), 400);
    expect(await send("GET", "/_sim/faults", {})).toEqual(before);
    await expectStillServing();
  });

  it("a concurrent burst of all of the above leaves exactly what the valid requests did", async () => {
    const seededModifiers = sim.state().bidModifiers;
    const garbage = (i: number): Promise<Answer> => {
      switch (i % 6) {
        case 0:
          return send("POST", GROUPS, { ...AUTH, ...JSON_TYPE }, nested(10_000));
        case 1:
          return send("POST", GROUPS, { ...AUTH, "content-type": "text/plain" }, '{"name":"x","color":"#000000","items":["1"]}');
        case 2:
          return send("POST", GROUPS, JSON_TYPE, "{}");
        case 3:
          return send("GET", "/v2/adex/zones/%", AUTH);
        case 4:
          return send("PATCH", `/v2/adex/bid-modifiers/${SEED_IDS.bidModifiers.countries}`, { ...AUTH, ...JSON_TYPE }, "{}");
        default:
          return send("POST", GROUPS, { ...AUTH, ...JSON_TYPE }, '{"name": "x"');
      }
    };
    // Sent in waves of 6 so the in-flight limit (8, spec Limits 6) never turns garbage into 429s.
    const answers: Answer[] = [];
    for (let wave = 0; wave < 5; wave++) answers.push(...(await Promise.all(Array.from({ length: 6 }, (_, i) => garbage(i)))));
    expect(answers.map((a) => a.status).filter((st) => st !== 400 && st !== 401)).toEqual([]);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
    expect(sim.state().campaignGroups).toHaveLength(2);
    expect(sim.state().bidModifiers).toEqual(seededModifiers);
    await expectStillServing();
    expect(sim.state().campaignGroups.map((g) => g.name)).toContain("After");
  });
});
