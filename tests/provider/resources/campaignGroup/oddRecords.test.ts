/**
 * CampaignGroup's reads (refresh, adoption) through the real dynamic-provider plugin against a real
 * loopback server that plays the platform with answers the spec allows and our simulator never
 * gives, served as raw JSON text: a `size` beyond 2^53, unknown fields named like
 * `Object.prototype` members and a `__proto__` key.
 */
import { startScriptedServer, type ScriptedServer } from "../../../helpers/scriptedServer";
import { lifecycleSuite, RECOGNISABLE_TOKEN, secretValue } from "../../../helpers/lifecycleEnv";

// Child processes (serializer, plugin) start slowly on a loaded machine: generous, never asserted.
jest.setTimeout(60_000);

/** The record text the server answers GET /v2/adex/groups/701 with next. */
let record = "";
let server: ScriptedServer | undefined;

beforeAll(async () => {
  server = await startScriptedServer((_req, res) => {
    const body = `{"total":1,"items":[${record}]}`;
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
afterAll(async () => server?.close());

const { env, urn, checked } = lifecycleSuite("CampaignGroup", "summer", {
  config: () => ({ "adplatform:baseUrl": server!.url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) }),
});
const declared = { name: "Summer sale", color: "#ff8800", items: ["5001", "5002", "5003"] };
const FIELDS = '"id":"701","company_id":"7001","name":"Summer sale","color":"#ff8800","create_time":"2026-01-02 03:04:05"';

it("refreshes a group whose size is beyond 2^53: the nearest number, no failure", async () => {
  record = `{${FIELDS},"size":9007199254740993}`;
  const read = await env.plugin.read("701", urn(), { ...(await checked(declared)), companyId: "7001" });
  expect(read.id).toBe("701");
  expect(read.properties).toMatchObject({ ...declared, companyId: "7001", size: 9007199254740992 });
  expect(env.engine.warnings()).toEqual(
    expect.arrayContaining([
      'CampaignGroup "Summer sale" (id 701): integers beyond 2^53 were read as the nearest number (a JavaScript number keeps 53 bits): size',
    ]),
  );
});

it("refreshes a group whose record carries unknown fields named like Object.prototype members and a __proto__ key", async () => {
  record = `{${FIELDS},"size":3,"__proto__":{"polluted":true},"constructor":"c","toString":"t","hasOwnProperty":"h"}`;
  const read = await env.plugin.read("701", urn(), { ...(await checked(declared)), companyId: "7001" });
  expect(read.properties).toMatchObject({ ...declared, companyId: "7001", size: 3, createTime: "2026-01-02 03:04:05" });
  expect(env.engine.warnings()).toEqual([]);
});

it("adopts a group whose size is beyond 2^53", async () => {
  record = `{${FIELDS},"size":9007199254740993}`;
  const created = await env.plugin.create(urn(), await checked({ ...declared, adoptId: "701" }));
  expect(created.id).toBe("701");
  expect(created.properties).toMatchObject({ name: "Summer sale", size: 9007199254740992 });
});
