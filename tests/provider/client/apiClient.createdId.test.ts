/**
 * A create whose success body is valid JSON with an `id` but fails the response schema: the client
 * does not retry it (a POST) and keeps that id on the `ApiResponseError` as `createdId`, so the
 * caller can name the object the platform says it created. Only usable ids are kept.
 */
import { ApiResponseError, closeApiClients, getApiClient } from "../../../provider/client";
import { type ScriptedServer, json, startScriptedServer } from "../../helpers/scriptedServer";

const GROUP = { name: "g", color: "#112233", items: ["1"] };

let server: ScriptedServer | undefined;
afterEach(async () => {
  await closeApiClients();
  await server?.close();
  server = undefined;
});

/** The error of one createCampaignGroup answered 201 with `body` (or with the JSON text `text`). */
async function createAnswered(body: unknown, text?: string): Promise<ApiResponseError> {
  server = await startScriptedServer((_req, res) => {
    if (text === undefined) return json(res, 201, body);
    res.writeHead(201, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  });
  const client = getApiClient({ baseUrl: server.url, token: "demo-token", retryOptions: { baseDelayMs: 10, maxDelayMs: 50 } });
  const error = await client.call("createCampaignGroup", { body: GROUP }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiResponseError);
  expect(server.requests).toHaveLength(1); // a POST is never repeated after an unusable answer
  return error as ApiResponseError;
}

describe("createdId of a create answered with a wrong-shaped body", () => {
  it("keeps a string id", async () => {
    const error = await createAnswered({ id: "100007", name: 5, color: "#112233" });
    expect(error.createdId).toBe("100007");
    expect(error.field).toBe("name");
    expect(error.toJSON()).toMatchObject({ createdId: "100007" });
  });

  it("keeps an integer id as its decimal string", async () => {
    expect((await createAnswered({ id: 100007, items: "not an array" })).createdId).toBe("100007");
  });

  it("keeps an integer id beyond 2^53 with every digit", async () => {
    expect((await createAnswered(undefined, '{"id":123456789012345678901,"name":5}')).createdId).toBe("123456789012345678901");
  });

  it.each([
    ["an id of the wrong kind", { id: { nested: true }, name: "g" }],
    ["a fractional id", { id: 1.5, name: "g" }],
    ["an empty id", { id: " ", name: 5 }],
    ["an id that is a dot segment", { id: "..", name: 5 }],
    ["an id with a control character", { id: "7\n8", name: 5 }],
    ["an overlong id", { id: "9".repeat(1025), name: 5 }],
    ["a body that is not an object", [{ id: "100007" }]],
  ])("drops %s", async (_what, body) => {
    expect((await createAnswered(body)).createdId).toBeUndefined();
  });

  it("is never set for a read, which creates nothing", async () => {
    server = await startScriptedServer((_req, res) => json(res, 200, { total: 1, items: [{ id: "5", name: 7 }] }));
    const client = getApiClient({ baseUrl: server.url, token: "demo-token", retryOptions: { maxAttempts: 1 } });
    const error = await client.call("getZone", { pathParams: { id: "5" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect((error as ApiResponseError).createdId).toBeUndefined();
  });
});
