/**
 * Answers the spec allows that the reader once could not read, served as raw JSON text by a real
 * loopback server playing the platform and read through the real client and data-source engine:
 * unknown fields named like `Object.prototype` members, two keys with one camelCase name,
 * `__proto__` keys in maps, nested records without an id, integers beyond 2^53.
 */
import * as pulumi from "@pulumi/pulumi";
import { closeApiClients, getApiClient } from "../../../provider/client";
import { COLLIDING_WIRE_FIELDS } from "../../../provider/wire/casing";
import { DATA_SOURCES, DataSourceResponseError, clearReadCache, readList, readOne, type DataSource } from "../../../provider/dataSources";
import { configureDataSources, getSearchAlgorithmOutput } from "../../../sdk/dataSources";
import { startScriptedServer, type ScriptedServer } from "../../helpers/scriptedServer";
import { WINDOWS, recordingMocks, settle } from "../../helpers/dataSourceHarness";

const TOKEN = "odd-records-token";
let server: ScriptedServer;
/** The body text the server answers with next. */
let body = "";

beforeAll(async () => {
  await pulumi.runtime.setMocks(recordingMocks(), "project", "stack", false);
  server = await startScriptedServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  getApiClient({ baseUrl: server.url, token: TOKEN, limiterOptions: { ...WINDOWS } });
});
beforeEach(() => clearReadCache());
afterAll(async () => {
  configureDataSources({});
  clearReadCache();
  await closeApiClients();
  await server.close();
});

/** Path arguments naming "1" for every path parameter of `source`. */
const argsOf = (source: DataSource) => Object.fromEntries(Object.keys(source.pathArgs).map((a) => [a, "1"]));

/** Reads `source` from the server answering `text` (one record in an envelope unless given whole). */
async function read(source: DataSource, text: string, warnings: string[] = []): Promise<unknown> {
  body = text;
  const connection = { baseUrl: server.url, token: TOKEN };
  const options = { onWarning: (m: string) => warnings.push(m) };
  return source.shape === "one"
    ? readOne(source, argsOf(source), connection, options)
    : (await readList<unknown>(source, argsOf(source), connection, options)).items[0];
}
const one = (record: string) => `{"total":1,"items":[${record}]}`;

const PROTOTYPE_NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf"];

describe.each(Object.values(DATA_SOURCES).map((s) => [s.functionName, s] as const))("%s", (_name, source) => {
  it("keeps unknown fields named like Object.prototype members", async () => {
    const fields = PROTOTYPE_NAMES.map((n) => `"${n}":"${n}-value"`).join(",");
    const result = (await read(source, one(`{"id":"1",${fields}}`))) as Record<string, unknown>;
    for (const n of PROTOTYPE_NAMES) {
      expect(Object.getOwnPropertyDescriptor(result, n)?.value).toBe(`${n}-value`);
    }
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it("keeps both of two unknown keys with one camelCase name", async () => {
    const result = (await read(source, one(`{"id":"1","sed_2":"snake","sed2":"camel"}`))) as Record<string, unknown>;
    expect(result.sed2).toBe("camel");
    expect(result[COLLIDING_WIRE_FIELDS]).toEqual({ sed_2: "snake" });
  });

  it("refuses a top-level record without an id, saying the id is missing", async () => {
    const error = await read(source, one(`{"name":"no id"}`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataSourceResponseError);
    expect((error as Error).message).toContain(source.shape === "one" ? 'field "id" is missing' : 'field "items[0].id" is missing');
  });
});

describe("a declared field beside an unknown key with its camelCase name", () => {
  it("gives the name to the declared field and keeps the other under its wire name", async () => {
    const result = (await read(DATA_SOURCES.getSearchAlgorithm, one(`{"id":"1","companyId":"unknown","company_id":"known"}`))) as Record<
      string,
      unknown
    >;
    expect(result.companyId).toBe("known");
    expect(result[COLLIDING_WIRE_FIELDS]).toEqual({ companyId: "unknown" });
  });
});

describe("nested records without an id", () => {
  it("reads a modal's message, an integration's event and action, and a macro's record", async () => {
    const modal = (await read(DATA_SOURCES.getContainerModal, one(`{"id":"1","messages":[{"name":"m"}]}`))) as { messages: unknown[] };
    expect(modal.messages).toEqual([{ name: "m" }]);
    const integration = (await read(
      DATA_SOURCES.getIntegration,
      one(`{"id":"1","events":[{"name":"e"}],"actions":[{"name":"a"}]}`),
    )) as Record<string, unknown>;
    expect(integration).toEqual({ id: "1", events: [{ name: "e" }], actions: [{ name: "a" }] });
    const macro = (await read(DATA_SOURCES.getMacros, one(`{"id":"1","records":[{"value":"v","fields":{"a_b":"c"}}]}`))) as Record<
      string,
      unknown
    >;
    expect(macro).toEqual({ id: "1", records: [{ value: "v", fields: { a_b: "c" } }] });
  });
});

describe("__proto__ keys in map fields", () => {
  const own = (value: unknown, key: string) => Object.getOwnPropertyDescriptor(value, key)?.value as unknown;

  it("keeps them in metadata, qps and user_data", async () => {
    const algo = (await read(DATA_SOURCES.getSearchAlgorithm, one(`{"id":"1","metadata":{"__proto__":"p","a":"b"}}`))) as {
      metadata: object;
    };
    expect(own(algo.metadata, "__proto__")).toBe("p");
    expect(Object.getPrototypeOf(algo.metadata)).toBe(Object.prototype);
    const demand = (await read(DATA_SOURCES.getExternalDemands, one(`{"id":"1","qps":{"__proto__":7}}`))) as { qps: object };
    expect(own(demand.qps, "__proto__")).toBe(7);
    const task = (await read(
      DATA_SOURCES.getPushTask,
      one(`{"id":"1","targeting":{"user_data":{"__proto__":{"op":"in","items":["x"]}}}}`),
    )) as {
      targeting: { userData: object };
    };
    expect(own(task.targeting.userData, "__proto__")).toEqual({ op: "in", items: ["x"] });
  });

  it("keeps them through the SDK's Output form", async () => {
    body = one(`{"id":"1","metadata":{"__proto__":"p"}}`);
    configureDataSources({ baseUrl: server.url, token: TOKEN });
    const algo = await settle(getSearchAlgorithmOutput({ id: "1" }));
    expect(own(algo.metadata, "__proto__")).toBe("p");
  });
});

describe("integers beyond 2^53", () => {
  it("keeps every digit of an id and reads a number field as the nearest number, with a warning", async () => {
    const warnings: string[] = [];
    const modal = (await read(
      DATA_SOURCES.getContainerModal,
      one(`{"id":9007199254740993,"company_id":12345678901234567890,"messages":[{"winner":9007199254740993,"extra":-9007199254740995}]}`),
      warnings,
    )) as Record<string, unknown>;
    expect(modal).toEqual({
      id: "9007199254740993",
      companyId: "12345678901234567890",
      messages: [{ winner: 9007199254740992, extra: -9007199254740996 }],
    });
    expect(warnings).toEqual([expect.stringContaining("items.0.messages.0.winner, items.0.messages.0.extra")]);
  });

  it("reads a total beyond 2^53 as a number", async () => {
    body = `{"total":18014398509481985,"items":[]}`;
    const list = await readList(DATA_SOURCES.getCountries, {}, { baseUrl: server.url, token: TOKEN }, { onWarning: () => undefined });
    expect(list).toEqual({ total: 18014398509481984, items: [] });
  });
});
