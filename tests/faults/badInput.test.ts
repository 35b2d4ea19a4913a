/**
 * Bad input, table-driven. Every resource input goes through the plugin's `Check` (sent as a Pulumi
 * program would send it, `NaN` and `Infinity` included) and every data-source argument through its
 * SDK function; each bad value gets a validation error naming its property path, and the
 * simulator's request log shows that nothing was sent.
 *
 * Ids holding `/`, `?`, `#` or spaces are legal strings (spec, Conventions: identifiers are
 * strings): they are sent percent-encoded as one path segment and answered 404, never routed
 * elsewhere. Only `.` and `..`, which URL normalisation would turn into another path, are refused.
 */
import * as sdk from "../../sdk";
import { DATA_SOURCES, type DataSourceName } from "../../provider/dataSources";
import { SEED_IDS } from "../../simulator";
import type { Kind } from "../helpers/dynamicProviderHarness";
import { RECOGNISABLE_TOKEN, startLifecycleEnv, type LifecycleEnv } from "../helpers/lifecycleEnv";
import { validArguments } from "../helpers/validCalls";
import { failureOf } from "./faultEnv";

jest.setTimeout(60_000);

let env: LifecycleEnv;
beforeAll(async () => {
  env = await startLifecycleEnv();
  sdk.configureDataSources({ baseUrl: env.sim.url, token: RECOGNISABLE_TOKEN });
});
afterAll(async () => {
  sdk.configureDataSources({});
  await env.close();
});
beforeEach(() => {
  env.sim.reset();
  sdk.clearDataSourceCache();
});

const deep = (levels: number): unknown => (levels === 0 ? "x" : { a: deep(levels - 1) });
const long = (n: number) => "x".repeat(n);

/** A value as a test title shows it: long strings shortened, NaN and Infinity spelled out. */
function show(value: unknown): string {
  if (typeof value === "string") return value.length > 40 ? `"xxx…" (${value.length} characters)` : JSON.stringify(value);
  if (typeof value === "number" || value === undefined) return String(value);
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Valid inputs per kind; each case overrides one property. */
const VALID: Record<Kind, Record<string, unknown>> = {
  BidStrategy: { name: "S", strategy: "exact", value: 1, maxValue: 2 },
  CampaignGroup: { name: "G", color: "#a1b2c3", items: ["1"] },
  BidModifier: { bidModifierId: SEED_IDS.bidModifiers.countries, name: "M" },
  AbTestVariation: { abTestId: SEED_IDS.abTests.homepage, variationId: "2", name: "V" },
};

/** [kind, property, bad value, expected failure path, expected reason]. */
type InputCase = [Kind, string, unknown, string, RegExp];

const INPUT_CASES: InputCase[] = [
  // BidStrategy
  ["BidStrategy", "name", 5, "name", /must be a string, got number 5/],
  ["BidStrategy", "strategy", "fast", "strategy", /must be one of "exact", "price_add", "price_sub", "percent_add", "percent_sub"/],
  ["BidStrategy", "strategy", "", "strategy", /must be one of "exact"/],
  ["BidStrategy", "strategy", 3, "strategy", /must be one of "exact"/],
  ["BidStrategy", "value", "abc", "value", /must be a decimal string such as "1\.50"/],
  ["BidStrategy", "value", NaN, "value", /finite number/],
  ["BidStrategy", "value", Infinity, "value", /finite number/],
  ["BidStrategy", "maxValue", -Infinity, "maxValue", /finite number/],
  ["BidStrategy", "value", "1e3", "value", /decimal string/],
  ["BidStrategy", "maxValue", true, "maxValue", /finite number/],
  ["BidStrategy", "maxValue", { amount: 1 }, "maxValue", /finite number/],
  ["BidStrategy", "adoptId", "", "adoptId", /must not be empty/],
  ["BidStrategy", "adoptId", 601, "adoptId", /must be a string/],
  ["BidStrategy", "colour", "#000000", "colour", /is not a known property; allowed here: name, pricingModel/],
  // CampaignGroup
  ["CampaignGroup", "color", "red", "color", /hex colour #rrggbb/],
  ["CampaignGroup", "color", "#12345", "color", /hex colour #rrggbb/],
  ["CampaignGroup", "color", "#gggggg", "color", /hex colour #rrggbb/],
  ["CampaignGroup", "color", "#1234567", "color", /hex colour #rrggbb/],
  ["CampaignGroup", "color", "a1b2c3", "color", /hex colour #rrggbb/],
  ["CampaignGroup", "color", 0xa1b2c3, "color", /must be a string/],
  ["CampaignGroup", "items", "1", "items", /must be an array/],
  ["CampaignGroup", "items", [NaN], "items[0]", /must be a string/],
  ["CampaignGroup", "adoptId", "..", "adoptId", /must not be "\." or "\.\."/],
  ["CampaignGroup", "adoptId", ".", "adoptId", /must not be "\." or "\.\."/],
  // BidModifier
  ["BidModifier", "bidModifierId", "", "bidModifierId", /must not be empty/],
  ["BidModifier", "bidModifierId", "..", "bidModifierId", /must not be "\." or "\.\."/],
  ["BidModifier", "bidModifierId", ".", "bidModifierId", /must not be "\." or "\.\."/],
  ["BidModifier", "bidModifierId", 501, "bidModifierId", /must be a string/],
  ["BidModifier", "bidModifierId", long(1025), "bidModifierId", /at most 1024 characters/],
  ["BidModifier", "value", "1.2.3", "value", /must be a decimal string such as "1\.50"/],
  ["BidModifier", "value", "NaN", "value", /must be a decimal string such as "1\.50"/],
  ["BidModifier", "value", "Infinity", "value", /must be a decimal string such as "1\.50"/],
  ["BidModifier", "maxValue", NaN, "maxValue", /finite number/],
  ["BidModifier", "maxValue", Infinity, "maxValue", /finite number/],
  ["BidModifier", "targeting", { countries: { items: "DE", op: "in" } }, "targeting.countries.items", /must be an array/],
  ["BidModifier", "targeting", { countries: { items: [["DE"]], op: "in" } }, "targeting.countries.items[0]", /must be a string/],
  [
    "BidModifier",
    "targeting",
    { countries: { items: ["DE"], op: "in", nested: deep(64) } },
    "targeting.countries.nested",
    /^is not a known property$/,
  ],
  ["BidModifier", "targeting", deep(64), "targeting.a.items", /is required/],
  ["BidModifier", "targeting", "countries", "targeting", /must be an object|must be a record/],
  ["BidModifier", "containers", [1], "containers[0]", /must be a string/],
  ["BidModifier", "tags", "t1", "tags", /must be an array/],
  // AbTestVariation
  ["AbTestVariation", "abTestId", "..", "abTestId", /must not be "\." or "\.\."/],
  ["AbTestVariation", "variationId", "", "variationId", /must not be empty/],
  ["AbTestVariation", "variationId", 2, "variationId", /must be a string/],
  ["AbTestVariation", "abTestId", long(100_000), "abTestId", /at most 1024 characters/],
  ["AbTestVariation", "settings", "x", "settings", /must be an object/],
  ["AbTestVariation", "settings", { image: { en: "not a url" } }, "settings.image.en", /absolute URL/],
  ["AbTestVariation", "settings", { image: { en: "/a.png" } }, "settings.image.en", /absolute URL/],
  ["AbTestVariation", "settings", {}, "settings.image", /is required/],
  ["AbTestVariation", "settings", { images: { en: "https://cdn.example/a.png" } }, "settings.images", /^is not a known property$/],
];

describe("resource inputs through the plugin's Check", () => {
  const titled = INPUT_CASES.map(([kind, property, value, path, reason]) => [kind, property, show(value), path, value, reason] as const);
  it.each(titled)("%s.%s = %s fails at %s, before any request", async (kind, property, _shown, path, value, reason) => {
    const news = { ...VALID[kind], [property]: value, __provider: env.providers[kind].provider };
    const { failures } = await env.plugin.check(env.urn(kind, "bad"), {}, news);
    const failure = failures.find((f) => f.property === path);
    expect({ failures, found: failure !== undefined }).toMatchObject({ found: true });
    expect(failure!.reason).toMatch(reason);
    expect(env.totalCalls()).toBe(0);
  });

  it("the valid base inputs pass, so every failure above is the bad property's", async () => {
    for (const kind of Object.keys(VALID) as Kind[]) {
      const { failures } = await env.plugin.check(env.urn(kind, "ok"), {}, { ...VALID[kind], __provider: env.providers[kind].provider });
      expect(failures).toEqual([]);
    }
  });
});

/** Ids that are legal strings but not URL-safe: each must travel as one encoded segment. */
const ODD_IDS = ["a/b", "../502", "501?x=1", "501#top", "5 01", "%2e%2e", "a\\b"];

describe("resource ids that need encoding", () => {
  it.each(ODD_IDS)("a bid modifier id %p is sent as one encoded segment and answered 404, never another route", async (id) => {
    const news = env.inputs("BidModifier", { bidModifierId: id, name: "M" });
    const checked = await env.plugin.check(env.urn("BidModifier", "odd"), {}, news);
    expect(checked.failures).toEqual([]);
    const message = await failureOf(env.plugin.create(env.urn("BidModifier", "odd"), news));
    expect(message).toContain("the platform has no bid modifier with this id");
    const log = env.sim.requests();
    expect(Object.keys(log.operations)).toEqual(["1"]);
    expect(env.calls(1).map((c) => [c.path, c.status])).toEqual([[`/v2/adex/bid-modifiers/${encodeURIComponent(id)}`, 404]]);
    // Nothing else changed: the seeded modifier 502 (which `../502` would reach if normalised) kept its name.
    expect(env.sim.state().bidModifiers.find((m) => m.id === "502")?.name).not.toBe("M");
  });
});

// ---------------------------------------------------------------------------------------------
// Data sources
// ---------------------------------------------------------------------------------------------

/** Valid arguments of every data source: those of its operation's valid call (seeded ids). */
const VALID_ARGS = Object.fromEntries(
  (Object.keys(DATA_SOURCES) as DataSourceName[]).map((name) => [name, validArguments(DATA_SOURCES[name])]),
) as Record<DataSourceName, Record<string, string>>;

type ReadFn = (args: unknown) => Promise<unknown>;
const readFn = (name: DataSourceName) => (sdk as unknown as Record<string, ReadFn>)[name];

/** [bad value, expected problem after "<arg>: "]. */
const BAD_ARG_VALUES: [unknown, RegExp][] = [
  [5, /^must be a string$/],
  [NaN, /^must be a string$/],
  [null, /^must be a string$/],
  [{}, /^must be a string$/],
  [["1"], /^must be a string$/],
  ["", /^must not be empty$/],
  [".", /must not be "\."/],
  ["..", /must not be "\.\."/],
  [long(100_000), /is longer than 1024 characters/],
];

const ARG_CASES: [DataSourceName, string, unknown, RegExp][] = (Object.keys(DATA_SOURCES) as DataSourceName[]).flatMap((name) =>
  Object.keys(DATA_SOURCES[name].pathArgs).flatMap((arg) =>
    BAD_ARG_VALUES.map(([value, problem]) => [name, arg, value, problem] as [DataSourceName, string, unknown, RegExp]),
  ),
);

/** Arguments that are wrong whatever the data source. */
const SHAPE_CASES: [DataSourceName, unknown, RegExp][] = [
  ...(Object.keys(DATA_SOURCES) as DataSourceName[]).map(
    (name) => [name, { ...VALID_ARGS[name], bogus: "1" }, /unknown argument "bogus"/] as [DataSourceName, unknown, RegExp],
  ),
  ["getZone", { id: "1001", fields: ["owner"] }, /fields\[0\]: must be one of "account", "creator"/],
  ["getZone", { id: "1001", fields: "account" }, /fields: /],
  ["getCreative", { id: "901", fields: ["a,b"] }, /fields\[0\]: must be a subresource name/],
  ["getZone", { id: "1001", query: { page: 2 } }, /query\.page: query values must be strings/],
  ["getZone", { id: "1001", query: { fields: "account" } }, /query: use the "fields" argument/],
  ["getCountries", "DE", /arguments must be an object/],
];

describe("data-source arguments", () => {
  const titled = ARG_CASES.map(([name, arg, value, problem]) => [name, arg, show(value), value, problem] as const);
  it.each(titled)("%s: %s = %s is refused naming the argument, before any request", async (name, arg, _shown, value, problem) => {
    const error = await readFn(name)({ ...VALID_ARGS[name], [arg]: value }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(sdk.DataSourceArgumentError);
    const problems = (error as InstanceType<typeof sdk.DataSourceArgumentError>).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0].startsWith(`${arg}: `)).toBe(true);
    expect(problems[0].slice(arg.length + 2)).toMatch(problem);
    expect((error as Error).message.startsWith(`${name}: invalid arguments: `)).toBe(true);
    expect(env.totalCalls()).toBe(0);
  });

  const titledShapes = SHAPE_CASES.map(([name, args, problem]) => [name, show(args), args, problem] as const);
  it.each(titledShapes)("%s(%s) is refused before any request", async (name, _shown, args, problem) => {
    await expect(readFn(name)(args)).rejects.toThrow(problem);
    expect(env.totalCalls()).toBe(0);
  });

  it("the valid arguments read successfully, so every refusal above is the bad argument's", async () => {
    for (const name of Object.keys(VALID_ARGS) as DataSourceName[]) await expect(readFn(name)(VALID_ARGS[name])).resolves.toBeDefined();
  });

  const ODD_CASES: [DataSourceName, string, string][] = (Object.keys(DATA_SOURCES) as DataSourceName[]).flatMap((name) =>
    Object.keys(DATA_SOURCES[name].pathArgs).flatMap((arg) => ODD_IDS.map((id) => [name, arg, id] as [DataSourceName, string, string])),
  );

  // A record read answers 404 (not found); a list read under an unknown parent answers an empty list.
  it.each(ODD_CASES)("%s: %s = %p is sent as one encoded segment and answered as unknown", async (name, arg, id) => {
    const source = DATA_SOURCES[name];
    const outcome = await readFn(name)({ ...VALID_ARGS[name], [arg]: id }).then(
      (result) => result,
      (e: unknown) => e,
    );
    if (source.shape === "one") expect(outcome).toBeInstanceOf(sdk.DataSourceNotFoundError);
    else expect(outcome).toEqual({ total: 0, items: [] });
    const log = env.sim.requests();
    expect(log.operations.unmatched).toBeUndefined();
    const params = Object.fromEntries(Object.entries(source.pathArgs).map(([a, p]) => [p, { ...VALID_ARGS[name], [arg]: id }[a]]));
    const expected = source.operation.path.replace(/\{(\w+)\}/g, (_m, p: string) => encodeURIComponent(params[p]));
    const calls = log.operations[String(source.operation.number)]?.calls ?? [];
    expect(calls.map((c) => [c.path, c.status])).toEqual([[expected, source.shape === "one" ? 404 : 200]]);
  });
});
