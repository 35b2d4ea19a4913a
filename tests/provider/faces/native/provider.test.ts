/**
 * The native plugin over gRPC, as the engine drives it (provider/faces/native/provider.ts):
 * the same lifecycles and data sources as the dynamic face, reached by type tokens, configured per
 * provider, importing what the API can read and refusing, with the way out, what it cannot.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../../helpers/dynamicProviderHarness";
import { secretValue } from "../../../helpers/lifecycleEnv";
import { UNKNOWN_VALUE } from "../../../../provider/resources/inputs/unknowns";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { DEMO_ACCOUNT, nativeUrn, startNativePlugin, useNativePlugin } from "../../../helpers/nativePluginHarness";
import { fromStruct, toStruct } from "../../../helpers/resourceProviderPlugin";

jest.setTimeout(60_000);

const SECOND_TOKEN = "native-second-token";

const native = useNativePlugin([DEMO_ACCOUNT, { account: "second", token: SECOND_TOKEN, companyId: "7002" }]);

describe("the package", () => {
  it("serves the schema file and the package's version", async () => {
    const schema = await native.plugin.getSchema();
    const file = fs.readFileSync(path.join(REPO_ROOT, "provider", "faces", "native", "schema.json"), "utf8");
    expect(JSON.parse(schema)).toEqual(JSON.parse(file));
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    expect(await native.plugin.getPluginInfo()).toBe(pkg.version);
  });
});

describe("resources", () => {
  it("checks, creates and diffs a bid strategy through the core", async () => {
    const urn = nativeUrn("BidStrategy", "cpc");
    const checked = await native.plugin.check(urn, {}, { name: "CPC", strategy: "exact", value: "0.5", maxValue: 2 });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toEqual({ name: "CPC", pricingModel: "cpc", strategy: "exact", value: 0.5, maxValue: 2 });
    const created = await native.plugin.create(urn, checked.inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(native.sim.state().bidStrategies?.find((s: any) => s.id === created.id)).toMatchObject({ name: "CPC", value: 0.5 });
    const same = await native.plugin.diff(created.id, urn, created.properties, { ...checked.inputs, value: "0.50" });
    expect(same).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
    const changed = await native.plugin.diff(created.id, urn, created.properties, { ...checked.inputs, name: "CPC 2" });
    expect(changed).toMatchObject({ changes: "some", replaces: ["name"] });
  });

  it("passes values unknown during a preview, in either of the engine's forms, and unwraps secret inputs", async () => {
    const urn = nativeUrn("CampaignGroup", "later");
    const unknownOutput = { "4dabf18193072939515e22adb298388d": "d0e6a833031e9bbcd3f4e8bde6ca49a4" };
    const checked = await native.plugin.check(urn, {}, { name: secretValue("Later"), color: UNKNOWN_VALUE, items: [unknownOutput] });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toEqual({ name: "Later", color: UNKNOWN_VALUE, items: [UNKNOWN_VALUE] });
  });

  it("reports check failures with property paths", async () => {
    const { failures } = await native.plugin.check(nativeUrn("CampaignGroup", "bad"), {}, { name: "G", color: "red", items: ["1"] });
    expect(failures).toEqual([{ property: "color", reason: expect.stringContaining("#rrggbb") }]);
  });

  it("creates a group and sends its warnings to the engine with the resource's URN", async () => {
    const urn = nativeUrn("CampaignGroup", "spring");
    const created = await native.plugin.create(urn, { name: "Spring", color: "#00ff00", items: ["9001"] });
    expect(created.properties).toMatchObject({ name: "Spring", color: "#00ff00", items: ["9001"], companyId: "7001" });
    await native.plugin.delete(created.id, urn, created.properties);
    const warning = native.engine.logs.find((l) => l.severity === "warning");
    expect(warning).toMatchObject({ urn, message: expect.stringContaining(`group ${created.id} stays on the platform`) });
  });

  it("says in check, once and on the resource's URN, that a create will adopt an existing object", async () => {
    const urn = nativeUrn("BidModifier", "dach");
    expect((await native.plugin.check(urn, {}, { bidModifierId: "501", value: "1.40" })).failures).toEqual([]);
    expect(native.engine.logs.filter((l) => l.severity === "info")).toEqual([
      { severity: "info", urn, message: expect.stringContaining("adopts the existing bid modifier 501; nothing is created") },
    ]);
    expect(native.sim.requests().total).toBe(0);
  });

  it("refreshes a group from the platform and answers an empty id once it is gone", async () => {
    const urn = nativeUrn("CampaignGroup", "summer");
    const state = { name: "Summer sale", color: "#ff8800", items: ["3001", "3002", "3003"] };
    const read = await native.plugin.read("701", urn, state);
    expect(read.id).toBe("701");
    expect(read.properties).toMatchObject({ ...state, size: 3 });
    expect(read.inputs).toEqual(state);
    expect(native.sim.deleteObject("campaignGroups", "701")).toBe(true);
    expect((await native.plugin.read("701", urn, state)).id).toBe("");
  });
});

describe("import", () => {
  it("imports a group from the platform: its declared fields become the inputs, and they check and diff clean", async () => {
    const urn = nativeUrn("CampaignGroup", "summer");
    const read = await native.plugin.read("701", urn, undefined);
    expect(read.id).toBe("701");
    expect(read.inputs).toEqual({ name: "Summer sale", color: "#ff8800" });
    expect(read.properties).toMatchObject({ name: "Summer sale", color: "#ff8800", size: 3 });
    expect(native.engine.warnings()).toEqual([]);
    const checked = await native.plugin.check(urn, read.inputs!, read.inputs!);
    expect(checked.failures).toEqual([]);
    expect(await native.plugin.diff("701", urn, read.properties, checked.inputs)).toMatchObject({ changes: "none" });
  });

  it("compares a group imported with items from an import file clean: the diff takes what the outputs lack from the old inputs", async () => {
    // The engine merges the file's inputs into the read's inputs only; the outputs have no items.
    const urn = nativeUrn("CampaignGroup", "summer");
    const read = await native.plugin.read("701", urn, undefined);
    const inputs = { ...read.inputs, items: ["5001", "5002", "5003"] };
    expect(await native.plugin.diff("701", urn, read.properties, inputs, inputs)).toMatchObject({ changes: "none" });
    // Without the old inputs the outputs alone lack items; a field the outputs hold is never overridden.
    expect(await native.plugin.diff("701", urn, read.properties, inputs)).toMatchObject({ changes: "some", replaces: ["items"] });
    const renamed = { ...inputs, name: "Renamed" };
    expect(await native.plugin.diff("701", urn, read.properties, inputs, renamed)).toMatchObject({ changes: "none" });
  });

  it("still requires items to create a group, also when an imported one is replaced", async () => {
    const { failures } = await native.plugin.check(nativeUrn("CampaignGroup", "new"), {}, { name: "New", color: "#000000" });
    expect(failures.map((f) => f.property)).toEqual(["items"]);
    const before = native.sim.requests().total;
    await expect(native.plugin.create(nativeUrn("CampaignGroup", "renamed"), { name: "Renamed", color: "#ff8800" })).rejects.toThrow(
      /cannot create a group without items/,
    );
    expect(native.sim.requests().total).toBe(before);
  });

  it("fails the import of a group the platform does not have", async () => {
    await expect(native.plugin.read("999999", nativeUrn("CampaignGroup", "ghost"), undefined)).rejects.toThrow(
      /CampaignGroup 999999: cannot import: the platform has no such object/,
    );
  });

  it.each([
    ["BidStrategy", "100001", 'adoptId: "100001"', "takes strategy 100001 over without creating one"],
    ["BidModifier", "501", 'bidModifierId: "501"', "sets those fields (PATCH /v2/adex/bid-modifiers/{id})"],
    [
      "AbTestVariation",
      "301/1",
      "abTestId and variationId",
      "sets those fields (PATCH /v2/adex/campaign-ab-tests/{id}/variations/{variation_id})",
    ],
  ])("refuses to import a %s, saying why, what to declare instead and what the next update does", async (kind, id, instead, then) => {
    const error = await native.plugin.read(id, nativeUrn(kind, "x"), undefined).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("the API has no read for this kind");
    expect((error as Error).message).toContain('import file entry with "inputs" and "outputs"');
    expect((error as Error).message).toContain(instead);
    expect((error as Error).message).toContain(then);
  });
});

describe("data sources as invokes", () => {
  it("reads a zone and a list through the data-source engine", async () => {
    const zone = await native.plugin.invoke("adplatform:index:getZone", { id: "1001", fields: ["account"] });
    expect(zone.failures).toEqual([]);
    expect(zone.result).toMatchObject({ id: "1001", account: expect.objectContaining({ id: expect.any(String) }) });
    const countries = await native.plugin.invoke("adplatform:index:getCountries", {});
    expect(countries.result.total).toBeGreaterThan(0);
    expect((countries.result.items as unknown[]).length).toBe(countries.result.total);
  });

  it("answers bad arguments as failures, before any request", async () => {
    const before = native.sim.requests().total;
    const { failures } = await native.plugin.invoke("adplatform:index:getZone", { zoneId: "1001" });
    expect(failures).toHaveLength(1);
    expect(failures[0]!.reason).toMatch(/getZone/);
    expect(native.sim.requests().total).toBe(before);
  });

  it("refuses a token it does not serve", async () => {
    await expect(native.plugin.invoke("adplatform:index:getNothing", {})).rejects.toThrow(/no function "adplatform:index:getNothing"/);
  });
});

describe("configuration", () => {
  /**
   * The plugin's answer to the engine's `CheckConfig` of a provider (the default one unless named),
   * given its configuration as the engine sends it.
   */
  async function checkConfig(news: Record<string, unknown>, provider = "default_0_1_0") {
    const req = new provproto.CheckRequest();
    req.setUrn(`urn:pulumi:dev::project::pulumi:providers:adplatform::${provider}`);
    req.setOlds(toStruct({}));
    req.setNews(toStruct(news));
    const res = await native.plugin.call<provproto.CheckResponse>("checkConfig", req);
    const failures = res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
    return { inputs: fromStruct(res.getInputs()), failures };
  }

  it("answers CheckConfig with the token and a limits URL that may carry a password marked secret, the rest as sent", async () => {
    const sent = {
      baseUrl: "https://api.example.com",
      token: "plain-token",
      limitsUrl: "redis://:pw@127.0.0.1:6390/0",
      journalDir: "/journal",
      version: "0.1.0",
    };
    expect(await checkConfig(sent)).toEqual({
      inputs: { ...sent, token: secretValue("plain-token"), limitsUrl: secretValue("redis://:pw@127.0.0.1:6390/0") },
      failures: [],
    });
  });

  it("refuses at preview a base URL or token no call could use, naming the setting as the user set it and never its value", async () => {
    const plainHttp = await checkConfig({ baseUrl: "http://api.example.com", token: "plain-token" });
    expect(plainHttp.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^adplatform:baseUrl: refusing to send the API token over plain http:\/\/ to api\.example\.com/),
      },
    ]);
    const spaced = await checkConfig({ baseUrl: "https://user:pw@api.example.com", token: "has spaces" }, "second");
    expect(spaced.failures).toEqual([
      { property: "", reason: "baseUrl: the API base URL must not contain credentials; set the token instead" },
      { property: "", reason: "token: the API token contains spaces, control or non-ASCII characters; it cannot be sent in a header" },
    ]);
    // Absent settings may come from the plugin's environment; an unknown one is judged when known.
    expect((await checkConfig({ baseUrl: UNKNOWN_VALUE })).failures).toEqual([]);
  });

  it("refuses at preview a readGraceSeconds that is not whole seconds, naming the setting as the user set it", async () => {
    expect((await checkConfig({ readGraceSeconds: "5m" })).failures).toEqual([
      { property: "", reason: expect.stringMatching(/^adplatform:readGraceSeconds must be a whole number of seconds/) },
    ]);
    expect((await checkConfig({ readGraceSeconds: "1.5" }, "second")).failures).toEqual([
      { property: "", reason: expect.stringMatching(/^readGraceSeconds must be a whole number of seconds/) },
    ]);
    expect((await checkConfig({ readGraceSeconds: "0" })).failures).toEqual([]);
  });

  it("refuses at preview a rateLimitShare that is not a fraction above 0 and at most 1, naming the setting as the user set it", async () => {
    for (const bad of ["0", "-0.5", "1.5", "half", "1e-1", "50%"]) {
      expect((await checkConfig({ rateLimitShare: bad })).failures).toEqual([
        { property: "", reason: expect.stringMatching(/^adplatform:rateLimitShare must be a number above 0 and at most 1/) },
      ]);
    }
    expect((await checkConfig({ rateLimitShare: "2" }, "second")).failures).toEqual([
      { property: "", reason: expect.stringMatching(/^rateLimitShare must be a number above 0 and at most 1/) },
    ]);
    for (const good of ["0.5", "1", ".25", " 0.3 "]) expect((await checkConfig({ rateLimitShare: good })).failures).toEqual([]);
  });

  /** The plugin's answer to the engine's `DiffConfig` of a provider from `olds` to `news`. */
  async function diffConfig(olds: Record<string, unknown>, news: Record<string, unknown>) {
    const req = new provproto.DiffRequest();
    req.setUrn("urn:pulumi:dev::project::pulumi:providers:adplatform::second");
    req.setOldInputs(toStruct(olds));
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    const res = await native.plugin.call<provproto.DiffResponse>("diffConfig", req);
    const kinds = Object.fromEntries(res.toObject().detaileddiffMap.map(([key, diff]) => [key, diff.kind]));
    return { changes: res.getChanges(), replaces: res.getReplacesList(), kinds };
  }

  it("answers DiffConfig: a rotated token is an update, another base URL replaces, another spelling of it does not", async () => {
    const { DIFF_NONE, DIFF_SOME } = provproto.DiffResponse.DiffChanges;
    const { UPDATE, UPDATE_REPLACE, ADD } = provproto.PropertyDiff.Kind;
    const olds = { baseUrl: "https://api.example.com", token: "old-token", version: "0.1.0" };
    expect(await diffConfig(olds, { ...olds })).toEqual({ changes: DIFF_NONE, replaces: [], kinds: {} });
    expect(await diffConfig(olds, { ...olds, token: "rotated-token" })).toEqual({
      changes: DIFF_SOME,
      replaces: [],
      kinds: { token: UPDATE },
    });
    expect(await diffConfig(olds, { ...olds, baseUrl: "https://EU.example.com/" })).toEqual({
      changes: DIFF_SOME,
      replaces: ["baseUrl"],
      kinds: { baseUrl: UPDATE_REPLACE },
    });
    expect(await diffConfig(olds, { ...olds, baseUrl: "https://API.example.com:443/", token: "rotated-token" })).toEqual({
      changes: DIFF_SOME,
      replaces: [],
      kinds: { baseUrl: UPDATE, token: UPDATE },
    });
    // A base URL on one side only cannot be compared (the environment may give it); an unknown one may be another.
    expect(await diffConfig({ token: "old-token" }, olds)).toMatchObject({ replaces: [], kinds: { baseUrl: ADD } });
    expect(await diffConfig(olds, { ...olds, baseUrl: UNKNOWN_VALUE })).toMatchObject({ replaces: ["baseUrl"] });
    // The engine's own keys are not settings.
    expect(await diffConfig(olds, { ...olds, version: "0.2.0" })).toMatchObject({ changes: DIFF_NONE });
  });

  it("leaves a limits URL without a password, an empty token and a value unknown in a preview as sent", async () => {
    const sent = { token: UNKNOWN_VALUE, limitsUrl: "redis://127.0.0.1:6390/0" };
    expect((await checkConfig(sent)).inputs).toEqual(sent);
    expect((await checkConfig({ token: "" })).inputs).toEqual({ token: "" });
  });

  it("gives each provider process its own account, from its arguments or the engine's config variables", async () => {
    const second = await startNativePlugin(native.engine.address);
    try {
      await second.configure({}, { "adplatform:baseUrl": native.sim.url, "adplatform:token": SECOND_TOKEN });
      const created = await second.create(nativeUrn("CampaignGroup", "other"), { name: "Other", color: "#123456", items: ["1"] });
      expect(created.properties.companyId).toBe("7002");
      expect(native.sim.requests("second").operations["2"]?.calls).toHaveLength(1);
      expect(native.sim.requests("demo").operations["2"]).toBeUndefined();
    } finally {
      await second.close();
    }
  });
});
