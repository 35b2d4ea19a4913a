/**
 * The token never leaves through an error (message, stack, typed fields, cause, `toJSON`, inspect),
 * a debug line, the connection or the client object, even when the server or undici echo it.
 */
import { inspect } from "node:util";
import { ApiConfigError, ApiError, ApiNetworkError, closeApiClients, getApiClient, resolveConnection } from "../../../provider/client";
import { explicitAccountIdentity, explicitAccountProblems } from "../../../provider/client/explicitAccount";
import { type ScriptedServer, json, startScriptedServer } from "../../helpers/scriptedServer";

const TOKEN = "tok-SECRET-123";
const STRATEGY = { name: "s", pricing_model: "cpc", strategy: "exact", value: 1, max_value: 2 };

/** Every way a value can be printed or serialised. */
function renderings(value: unknown): string[] {
  const out = [
    inspect(value, { depth: Infinity, showHidden: true }),
    inspect(value, { depth: Infinity }),
    JSON.stringify(value) ?? "",
    String(value),
  ];
  if (value instanceof Error) {
    out.push(value.message, value.stack ?? "");
    let cause: unknown = value.cause;
    while (cause instanceof Error) {
      out.push(cause.message, cause.stack ?? "", inspect(cause, { showHidden: true, depth: Infinity }));
      cause = cause.cause;
    }
  }
  return out;
}

function expectNoToken(value: unknown): void {
  for (const text of renderings(value)) expect(text).not.toContain(TOKEN);
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await closeApiClients();
  await server?.close();
  server = undefined;
});

describe("the token never leaks", () => {
  it("is not in errors built from server bodies that echo the Authorization header", async () => {
    server = await startScriptedServer((req, res, i) => {
      const echoed = `invalid header authorization: ${String(req.headers.authorization)}`;
      if (i === 0) json(res, 400, { code: 400, title: `Bad ${TOKEN}`, message: echoed, trace_id: TOKEN });
      else json(res, 500, { code: 500, title: "Internal Server Error", message: echoed });
    });
    const lines: string[] = [];
    const client = getApiClient({ baseUrl: server.url, token: TOKEN, onDebug: (l) => lines.push(l), retryOptions: { maxAttempts: 1 } });
    const errors = [
      await client.call("createBidStrategy", { body: STRATEGY }).catch((e: unknown) => e),
      await client.call("createBidStrategy", { body: STRATEGY }).catch((e: unknown) => e),
    ];
    // The server did see the token: the test would prove nothing otherwise.
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).serverMessage).toContain("[REDACTED]");
      expectNoToken(error);
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(TOKEN);
  });

  it("is not in network errors that wrap undici's errors, nor in timeouts", async () => {
    server = await startScriptedServer((_req, res, i) => (i === 0 ? res.socket?.destroy() : undefined));
    const client = getApiClient({ baseUrl: server.url, token: TOKEN, timeouts: { requestMs: 100 } });
    const reset = await client.call("createBidStrategy", { body: STRATEGY }).catch((e: unknown) => e);
    const timedOut = await client.call("createBidStrategy", { body: STRATEGY }).catch((e: unknown) => e);
    expect(reset).toBeInstanceOf(ApiNetworkError);
    expect((reset as ApiNetworkError).cause).toBeInstanceOf(Error);
    expect(timedOut).toMatchObject({ timeout: "request" });
    expectNoToken(reset);
    expectNoToken(timedOut);
  });

  it("is scrubbed from a wrapped error whose message, stack and fields carry headers", () => {
    const undiciLike = Object.assign(new Error(`socket hang up; sent headers: Authorization: Bearer ${TOKEN}`), {
      code: "UND_ERR_SOCKET",
      headers: { authorization: `Bearer ${TOKEN}` },
      socket: { remoteAddress: "127.0.0.1", token: TOKEN },
      cause: new Error(`inner: ${TOKEN}`),
    });
    const error = new ApiNetworkError("connection closed by the server", {
      mayHaveReachedServer: true,
      cause: undiciLike,
      secrets: [TOKEN],
      operation: { name: "getZone", number: 13 },
      method: "GET",
      path: "/v2/adex/zones/1",
    });
    expectNoToken(error);
    expect((error.cause as { code?: string }).code).toBe("UND_ERR_SOCKET");
    expect(error.toJSON()).toMatchObject({ cause: { code: "UND_ERR_SOCKET" } });
  });

  it("is not in local validation errors, even when the body holds it", async () => {
    server = await startScriptedServer((_req, res) => json(res, 201, { id: "1" }));
    const client = getApiClient({ baseUrl: server.url, token: TOKEN });
    const error = await client.call("createBidStrategy", { body: { ...STRATEGY, strategy: TOKEN } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expectNoToken(error);
    expect(server.requests).toHaveLength(0);
  });

  it("is not printed by ADPLATFORM_DEBUG=1 lines on stderr", async () => {
    server = await startScriptedServer((_req, res) => json(res, 404, { code: 404 }));
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const client = getApiClient({ baseUrl: server.url, token: TOKEN, env: { ADPLATFORM_DEBUG: "1" } });
      await client.call("getZone", { pathParams: { id: "1" } }).catch(() => undefined);
    } finally {
      spy.mockRestore();
    }
    expect(written.join("")).toMatch(/adplatform: → getZone .*Authorization: Bearer \[REDACTED\]/);
    expect(written.join("")).not.toContain(TOKEN);
  });

  it("is not shown when the connection or the client is logged", async () => {
    server = await startScriptedServer((_req, res) => json(res, 404, {}));
    const connection = resolveConnection({ baseUrl: server.url, token: TOKEN });
    expect(connection.token).toBe(TOKEN);
    expectNoToken(connection);
    expectNoToken(getApiClient({ baseUrl: server.url, token: TOKEN }));
  });

  it("is not echoed by configuration errors", () => {
    const badToken = `${TOKEN}\r\nX-Injected: 1`;
    const errors = [
      (() => {
        try {
          resolveConnection({ baseUrl: "https://api.example.com", token: badToken });
        } catch (e) {
          return e;
        }
      })(),
      (() => {
        try {
          resolveConnection({ baseUrl: `https://user:${TOKEN}@api.example.com`, token: "other-token" });
        } catch (e) {
          return e;
        }
      })(),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(ApiConfigError);
      expectNoToken(error);
    }
  });

  it("is not in what an explicit account's checks say, nor in its identity or connection", () => {
    const accounts = [
      { baseUrl: "http://api.example.com", token: TOKEN },
      { baseUrl: `https://user:${TOKEN}@api.example.com`, token: TOKEN },
      { baseUrl: "https://api.example.com", token: `${TOKEN}\r\nX-Injected: 1` },
      { baseUrl: "not a url", token: TOKEN, name: "" },
    ];
    for (const account of accounts) {
      const problems = explicitAccountProblems(account);
      expect(problems.length).toBeGreaterThan(0);
      expectNoToken(problems);
      expectNoToken(explicitAccountIdentity(account));
      expectNoToken(
        (() => {
          try {
            return resolveConnection({ baseUrl: account.baseUrl, token: account.token, env: {} });
          } catch (e) {
            return e;
          }
        })(),
      );
    }
    expectNoToken(explicitAccountIdentity({ baseUrl: "https://api.example.com", token: TOKEN }));
  });
});
