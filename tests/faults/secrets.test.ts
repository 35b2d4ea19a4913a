/**
 * The token never leaks: a whole lifecycle run with a recognisable token (and one with an `Account`
 * of a second account, whose token travels as a resource property), then a search for them in
 * everything the project writes: the serialized providers, every property the plugin returns, the
 * engine's log, every error message (server errors, drops, timeouts, 429s, 401s, bodies that echo
 * the Authorization header), the client's debug output, and the simulator's request log as served
 * by `/_sim/requests`. Also: the token is never sent over plain http to a host that is not loopback
 * (refused before any connection), and an endless or huge response is abandoned at the size cap.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import * as sdk from "../../sdk";
import { ApiConfigError, closeApiClients, DEFAULT_MAX_RESPONSE_BYTES, getApiClient } from "../../provider/client";
import { SEED_IDS, type FaultRule } from "../../simulator";
import { cleanEnv, type DynamicProviderPlugin, type Kind } from "../helpers/dynamicProviderHarness";
import { RECOGNISABLE_TOKEN, secretValue, type LifecycleEnv } from "../helpers/lifecycleEnv";
import { eventually, failureOf, PLUGIN_TIMEOUT_MS, SLOW_MS, startFaultEnv } from "./faultEnv";

jest.setTimeout(60_000);

/** A second recognisable token the simulator does not know (401s must not echo it either). */
const UNKNOWN_TOKEN = "tok-UNKNOWN-5d1e22b0-never-in-logs";
/** The token of a second account, given to resources and data sources as an `Account`. */
const ACCOUNT_TOKEN = "tok-ACCOUNT-93c4f7a2-never-in-logs";
// Node's own modules, not the `import *` copies: spies must replace what undici calls.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const net = require("node:net") as typeof import("node:net");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tls = require("node:tls") as typeof import("node:tls");

let env: LifecycleEnv;
/** Every text the project wrote during this file, searched at the end. */
const written: { where: string; text: string }[] = [];
const keep = (where: string, value: unknown) =>
  written.push({
    where,
    text: typeof value === "string" ? value : `${JSON.stringify(value)}\n${inspect(value, { depth: Infinity, showHidden: true })}`,
  });

beforeAll(async () => {
  env = await startFaultEnv({
    simulator: {
      accounts: [
        { account: "demo", token: RECOGNISABLE_TOKEN, companyId: "7001" },
        { account: "second", token: ACCOUNT_TOKEN, companyId: "7002" },
      ],
    },
  });
});
afterAll(async () => {
  sdk.configureDataSources({});
  await closeApiClients();
  await env.close();
});
beforeEach(() => env.sim.reset());

const script = (...rules: Partial<FaultRule>[]) => env.sim.setFaults({ rules: rules as FaultRule[] });
const news = (kind: Kind, props: Record<string, unknown>) => env.inputs(kind, props);
/** `news` after the plugin's `Check` (defaults filled in), as the engine sends them to `Create`. */
async function checked(kind: Kind, props: Record<string, unknown>): Promise<Record<string, unknown>> {
  const raw = news(kind, props);
  const result = await env.plugin.check(env.urn(kind, "checked"), {}, raw);
  keep(`check ${kind}`, result);
  expect(result.failures).toEqual([]);
  return { ...result.inputs, __provider: raw.__provider };
}

describe("a lifecycle run with faults writes the token nowhere", () => {
  it("runs every operation of the four resources, and every way a call can fail", async () => {
    for (const kind of Object.keys(env.providers) as Kind[]) keep(`serialized ${kind}`, env.providers[kind].provider);
    const p = env.plugin;
    const run = async (where: string, call: Promise<unknown>) => keep(where, await call);
    const fail = async (where: string, call: Promise<unknown>) => keep(where, await failureOf(call));

    const s = await checked("BidStrategy", { name: "Secret run", strategy: "exact", value: 1, maxValue: 2 });
    const strategy = await p.create(env.urn("BidStrategy", "s"), s);
    keep("create strategy", strategy);
    await run("read strategy", p.read(strategy.id, env.urn("BidStrategy", "s"), { ...strategy.properties, __provider: s.__provider }));
    await p.delete(strategy.id, env.urn("BidStrategy", "s"), strategy.properties);

    const g = await checked("CampaignGroup", { name: "Secret group", color: "#010203", items: ["1"] });
    const group = await p.create(env.urn("CampaignGroup", "g"), g);
    keep("create group", group);
    await run("read group", p.read(group.id, env.urn("CampaignGroup", "g"), { ...group.properties, __provider: g.__provider }));
    await run("diff group", p.diff(group.id, env.urn("CampaignGroup", "g"), group.properties, { ...g, name: "Renamed" }));
    await p.delete(group.id, env.urn("CampaignGroup", "g"), group.properties);

    const m = await checked("BidModifier", { bidModifierId: SEED_IDS.bidModifiers.countries, name: "M", tags: ["t"] });
    const modifier = await p.create(env.urn("BidModifier", "m"), m);
    keep("create modifier", modifier);
    await run("update modifier", p.update(modifier.id, env.urn("BidModifier", "m"), modifier.properties, { ...m, name: "M2" }));
    await p.delete(modifier.id, env.urn("BidModifier", "m"), modifier.properties);

    const v = await checked("AbTestVariation", {
      abTestId: "301",
      variationId: "1",
      settings: { image: { en: "https://cdn.example/a.png" } },
    });
    const variation = await p.create(env.urn("AbTestVariation", "v"), v);
    keep("create variation", variation);
    await run("update variation", p.update(variation.id, env.urn("AbTestVariation", "v"), variation.properties, { ...v, name: "V2" }));

    // Every failure the client can report, through the plugin.
    const failing = await checked("BidStrategy", { name: "Doomed", strategy: "exact", value: 1, maxValue: 2 });
    for (const kind of ["error500", "error500NoTrace", "dropBefore", "dropAfter", "malformed"] as const) {
      script({ kind, op: 3 });
      await fail(`create under ${kind}`, p.create(env.urn("BidStrategy", "d"), failing));
    }
    script({ kind: "delay", op: 3, delayMs: SLOW_MS });
    await fail("create that timed out", p.create(env.urn("BidStrategy", "d"), failing));
    // A 429 is bounded only by the retry budget: a plugin whose budget is short, under a storm that outlasts it.
    const impatient = await env.startPlugin(
      cleanEnv({ ADPLATFORM_TIMEOUT_MS: String(PLUGIN_TIMEOUT_MS), ADPLATFORM_DEBUG: "1", ADPLATFORM_RETRY_BUDGET_MS: "1000" }),
    );
    try {
      await impatient.configure({ "adplatform:baseUrl": env.sim.url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) });
      script({ kind: "concurrency", op: 2, count: 1_000 });
      await fail("create under a 429 storm", impatient.create(env.urn("CampaignGroup", "d"), g));
      keep("stderr of the plugin under a 429 storm", impatient.stderr());
    } finally {
      env.sim.setFaults({ rules: [] });
      await impatient.close();
    }
    await fail(
      "update of an unknown modifier",
      p.update("404404", env.urn("BidModifier", "x"), modifier.properties, { ...m, bidModifierId: "404404", name: "X" }),
    );
    await fail("adopting an unknown group", p.create(env.urn("CampaignGroup", "a"), { ...g, adoptId: "999999" }));

    // A plugin whose token the platform does not know: 401s.
    const stranger = await env.startPlugin();
    await stranger.configure({ "adplatform:baseUrl": env.sim.url, "adplatform:token": secretValue(UNKNOWN_TOKEN) });
    await fail("create with an unknown token", stranger.create(env.urn("BidStrategy", "u"), s));
    await fail("refresh with an unknown token", stranger.read(SEED_IDS.campaignGroups.summer, env.urn("CampaignGroup", "u"), g));
    keep("stderr of the unknown-token plugin", stranger.stderr());

    keep("engine log", env.engine.logs);
    keep("plugin stderr (debug lines)", p.stderr());
    for (const account of ["demo", "second", "anonymous"]) {
      const response = await fetch(`${env.sim.url}/_sim/requests?account=${account}`);
      keep(`/_sim/requests?account=${account}`, await response.text());
    }
    await eventually(() => env.sim.requests().operations["3"]?.calls.some((c) => c.fault === "delay") ?? false, "the delayed POST settled");
    // The search below means something only if the token did travel: the simulator authenticated it.
    expect(env.sim.requests("demo").byStatus["201"]).toBeGreaterThan(0);
  });

  it("data sources, in this process, with debug lines on and failing reads", async () => {
    const previous = process.env.ADPLATFORM_DEBUG;
    process.env.ADPLATFORM_DEBUG = "1";
    const stderr = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      keep("data-source debug line", String(chunk));
      return true;
    });
    try {
      await closeApiClients();
      sdk.clearDataSourceCache();
      sdk.configureDataSources({ baseUrl: env.sim.url, token: RECOGNISABLE_TOKEN });
      keep("getZone", await sdk.getZone({ id: SEED_IDS.zones.display, fields: ["account", "creator"] }));
      keep("getCountries", await sdk.getCountries());
      for (const [args, rules] of [
        [{ id: "999999" }, []],
        [{ id: SEED_IDS.zones.rtb }, [{ kind: "error500", op: 13, count: 5 }]],
        [{ id: SEED_IDS.zones.push }, [{ kind: "malformed", op: 13, count: 5 }]],
      ] as const) {
        script(...rules);
        const error = await sdk.getZone(args).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(sdk.DataSourceError);
        keep(`getZone(${args.id}) error`, error);
        keep(`getZone(${args.id}) error stack`, (error as Error).stack);
      }
      sdk.configureDataSources({ baseUrl: env.sim.url, token: UNKNOWN_TOKEN });
      keep("getZone with an unknown token", await sdk.getZone({ id: SEED_IDS.zones.display }).catch((e: unknown) => e));
    } finally {
      stderr.mockRestore();
      if (previous === undefined) delete process.env.ADPLATFORM_DEBUG;
      else process.env.ADPLATFORM_DEBUG = previous;
      sdk.configureDataSources({});
      await closeApiClients();
    }
    expect(written.some((w) => w.where === "data-source debug line" && w.text.includes("Bearer [REDACTED]"))).toBe(true);
  });

  it("resources and data sources naming an Account: its token in no error, warning, log or debug line", async () => {
    const p = env.plugin;
    const account = { baseUrl: env.sim.url, token: ACCOUNT_TOKEN };
    const stranger = { baseUrl: env.sim.url, token: UNKNOWN_TOKEN };
    /**
     * A plugin result, kept without its `account` property: the plugin hands the account back to the
     * engine by design (read and delete find it in the state), and the engine stores it only as
     * ciphertext (tests/e2e/accounts.test.ts checks the exported state). Nothing else may hold it.
     */
    const result = <T extends { properties?: Record<string, unknown>; inputs?: Record<string, unknown> }>(where: string, value: T): T => {
      const { account: outAccount, ...properties } = value.properties ?? {};
      const { account: inAccount, ...inputs } = value.inputs ?? {};
      for (const kept of [outAccount, inAccount]) if (kept !== undefined) expect(kept).toEqual(account);
      keep(where, { ...value, properties, inputs });
      return value;
    };
    const checkedIn = async (kind: Kind, props: Record<string, unknown>) => {
      const raw = news(kind, { ...props, account });
      const checkResult = await p.check(env.urn(kind, "account"), {}, raw);
      expect(checkResult.failures).toEqual([]);
      result(`check ${kind} with an account`, checkResult);
      return { ...checkResult.inputs, __provider: raw.__provider };
    };
    const fail = async (where: string, call: Promise<unknown>) => keep(where, await failureOf(call));

    const g = await checkedIn("CampaignGroup", { name: "Account group", color: "#010203", items: ["1"] });
    const group = result("create group in an account", await p.create(env.urn("CampaignGroup", "ag"), g));
    result("read group in an account", await p.read(group.id, env.urn("CampaignGroup", "ag"), group.properties));
    keep("diff to another account", await p.diff(group.id, env.urn("CampaignGroup", "ag"), group.properties, { ...g, account: stranger }));
    await p.delete(group.id, env.urn("CampaignGroup", "ag"), group.properties);
    const m = await checkedIn("BidModifier", { bidModifierId: SEED_IDS.bidModifiers.countries, name: "AM", tags: ["t"] });
    const modifier = result("create modifier in an account", await p.create(env.urn("BidModifier", "am"), m));
    result(
      "update modifier in an account",
      await p.update(modifier.id, env.urn("BidModifier", "am"), modifier.properties, { ...m, name: "AM2" }),
    );
    await p.delete(modifier.id, env.urn("BidModifier", "am"), modifier.properties);

    script({ kind: "error500", op: 2, account: "second" });
    await fail("create in an account under a 500", p.create(env.urn("CampaignGroup", "ad"), g));
    await fail("create in an account the platform does not know", p.create(env.urn("CampaignGroup", "au"), { ...g, account: stranger }));
    await fail(
      "refresh in an account the platform does not know",
      p.read(group.id, env.urn("CampaignGroup", "au"), { ...group.properties, account: stranger }),
    );
    for (const bad of [
      { baseUrl: "http://api.example.com", token: ACCOUNT_TOKEN },
      { baseUrl: `https://user:${ACCOUNT_TOKEN}@api.example.com`, token: ACCOUNT_TOKEN },
      { baseUrl: env.sim.url, token: `${ACCOUNT_TOKEN}\r\nX-Injected: 1` },
    ]) {
      const refused = await p.check(
        env.urn("CampaignGroup", "ab"),
        {},
        news("CampaignGroup", { name: "B", color: "#010203", items: ["1"], account: bad }),
      );
      expect(refused.failures.length).toBeGreaterThan(0);
      keep("check failures of an unusable account", refused.failures);
    }

    const previous = process.env.ADPLATFORM_DEBUG;
    process.env.ADPLATFORM_DEBUG = "1";
    const stderr = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      keep("data-source debug line (account)", String(chunk));
      return true;
    });
    try {
      sdk.clearDataSourceCache();
      const brand = new sdk.Account({ baseUrl: env.sim.url, token: ACCOUNT_TOKEN });
      keep("getZone in an account", await sdk.getZone({ id: SEED_IDS.zones.display, account: brand }));
      script({ kind: "error500", op: 13, account: "second", count: 5 });
      keep("getZone in an account under 500s", await sdk.getZone({ id: SEED_IDS.zones.rtb, account: brand }).catch((e: unknown) => e));
      const unknown = new sdk.Account({ baseUrl: env.sim.url, token: UNKNOWN_TOKEN });
      keep("getZone in an unknown account", await sdk.getZone({ id: SEED_IDS.zones.display, account: unknown }).catch((e: unknown) => e));
      const remote = new sdk.Account({ baseUrl: "http://api.example.com", token: ACCOUNT_TOKEN });
      keep(
        "getZone in an account over plain http",
        await sdk.getZone({ id: SEED_IDS.zones.display, account: remote }).catch((e: unknown) => e),
      );
      keep("an Account, inspected", brand);
    } finally {
      stderr.mockRestore();
      if (previous === undefined) delete process.env.ADPLATFORM_DEBUG;
      else process.env.ADPLATFORM_DEBUG = previous;
      env.sim.setFaults({ rules: [] });
      await closeApiClients();
    }
    keep("engine log (accounts)", env.engine.logs);
    keep("plugin stderr (accounts)", p.stderr());
    keep("/_sim/requests?account=second (accounts)", await (await fetch(`${env.sim.url}/_sim/requests?account=second`)).text());
    // The account's token did travel: the platform authenticated it.
    expect(env.sim.requests("second").byStatus["201"] ?? env.sim.requests("second").byStatus["204"]).toBeGreaterThan(0);
  });

  it("the search: the token was used (the platform authenticated it) and appears in none of it", () => {
    expect(written.find((w) => w.where === "plugin stderr (debug lines)")?.text).toContain("Authorization: Bearer [REDACTED]");
    expect(written.length).toBeGreaterThan(30);
    const tokens = [RECOGNISABLE_TOKEN, UNKNOWN_TOKEN, ACCOUNT_TOKEN];
    const leaks = written.filter((w) => tokens.some((token) => w.text.includes(token))).map((w) => w.where);
    expect(leaks).toEqual([]);
  });
});

describe("plain http to a host that is not loopback", () => {
  const REMOTE = [
    "http://203.0.113.1",
    "http://203.0.113.1:8080/api",
    "http://10.0.0.7",
    "http://localhost.example.com",
    "http://[::ffff:203.0.113.1]",
  ];

  it.each(REMOTE)("the plugin refuses %s before sending, naming https:// as the way", async (baseUrl) => {
    const plugin = await env.startPlugin();
    try {
      await plugin.configure({ "adplatform:baseUrl": baseUrl, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) });
      const message = await failureOf(
        plugin.create(env.urn("BidStrategy", "r"), news("BidStrategy", { name: "R", strategy: "exact", value: 1, maxValue: 2 })),
      );
      expect(message).toContain("refusing to send the API token over plain http://");
      expect(message).toContain("use https://");
      expect(message).not.toContain(RECOGNISABLE_TOKEN);
    } finally {
      await plugin.close();
    }
  });

  it("in this process no socket is even opened (checked against a loopback read that does open one)", async () => {
    const connect = jest.spyOn(net, "connect");
    const createConnection = jest.spyOn(net, "createConnection");
    const tlsConnect = jest.spyOn(tls, "connect");
    const opened = () => connect.mock.calls.length + createConnection.mock.calls.length + tlsConnect.mock.calls.length;
    try {
      await closeApiClients();
      sdk.clearDataSourceCache();
      sdk.configureDataSources({ baseUrl: env.sim.url, token: RECOGNISABLE_TOKEN });
      await sdk.getCountries();
      expect(opened()).toBeGreaterThan(0); // the spies see undici's connections
      connect.mockClear();
      createConnection.mockClear();
      tlsConnect.mockClear();
      for (const baseUrl of REMOTE) {
        sdk.configureDataSources({ baseUrl, token: RECOGNISABLE_TOKEN });
        sdk.clearDataSourceCache();
        await expect(sdk.getCountries()).rejects.toThrow("refusing to send the API token over plain http://");
        expect(() => getApiClient({ baseUrl, token: RECOGNISABLE_TOKEN })).toThrow(ApiConfigError);
      }
      expect(opened()).toBe(0);
    } finally {
      connect.mockRestore();
      createConnection.mockRestore();
      tlsConnect.mockRestore();
      sdk.configureDataSources({});
      await closeApiClients();
    }
  });
});

describe("responses larger than the cap", () => {
  type Mode = "endless" | "declaredHuge" | "echo400" | "echo500";
  let mode: Mode = "endless";
  let served = 0;
  let closed = 0;
  let requests = 0;
  let server: Server;
  let url: string;
  let plugin: DynamicProviderPlugin;

  /** Writes 64 KiB chunks, honouring backpressure, until the client goes away. */
  function endless(res: ServerResponse): void {
    const chunk = Buffer.alloc(64 * 1024, "[");
    res.writeHead(200, { "content-type": "application/json" });
    res.on("close", () => (closed += 1));
    const pump = () => {
      while (!res.destroyed) {
        served += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    pump();
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests += 1;
      const echoed = `echo: authorization=${String(req.headers.authorization)}`;
      if (mode === "endless") return endless(res);
      if (mode === "declaredHuge") {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(10 * 1024 ** 3) });
        return void res.write("{");
      }
      const status = mode === "echo400" ? 400 : 500;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          code: status,
          title: `Echo ${String(req.headers.authorization)}`,
          message: echoed,
          trace_id: String(req.headers.authorization),
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    plugin = await env.startPlugin();
    await plugin.configure({ "adplatform:baseUrl": url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) });
  });
  afterAll(async () => {
    await plugin.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    served = 0;
    closed = 0;
    requests = 0;
  });

  const refresh = () =>
    plugin.read(
      SEED_IDS.campaignGroups.summer,
      env.urn("CampaignGroup", "big"),
      news("CampaignGroup", { name: "G", color: "#000000", items: ["1"] }),
    );

  it("an endless body is abandoned at the cap, not retried, and the error names the limit", async () => {
    mode = "endless";
    const message = await failureOf(refresh());
    expect(message).toContain(`exceeds the ${DEFAULT_MAX_RESPONSE_BYTES}-byte limit; not read`);
    await eventually(() => closed === 1, "the client closed the endless response");
    expect(requests).toBe(1);
    // Bounded: the cap plus what the socket buffers held, far below what the server would send.
    expect(served).toBeGreaterThan(DEFAULT_MAX_RESPONSE_BYTES);
    expect(served).toBeLessThan(DEFAULT_MAX_RESPONSE_BYTES + 16 * 1024 * 1024);
    expect(message).not.toContain(RECOGNISABLE_TOKEN);
  });

  it("a declared length over the cap is refused without reading the body", async () => {
    mode = "declaredHuge";
    const message = await failureOf(refresh());
    expect(message).toContain(`response body of ${10 * 1024 ** 3} bytes exceeds the ${DEFAULT_MAX_RESPONSE_BYTES}-byte limit`);
    expect(requests).toBe(1);
  });

  it.each(["echo400", "echo500"] as const)(
    "an error body echoing the Authorization header (%s) is reported without the token",
    async (echo) => {
      mode = echo;
      const message = await failureOf(refresh());
      expect(message).toContain(echo === "echo400" ? "400" : "500");
      expect(message).toContain("[REDACTED]");
      expect(message).not.toContain(RECOGNISABLE_TOKEN);
      expect(plugin.stderr()).not.toContain(RECOGNISABLE_TOKEN);
    },
  );
});
