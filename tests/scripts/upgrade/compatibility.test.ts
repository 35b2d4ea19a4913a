/**
 * The breaking-change rules (scripts/upgrade/compatibility.ts) on the 0.1.0 release's own schema and
 * SDK surface, each changed the way a later commit might change it: what must be flagged is, what
 * must not (an added optional input, a new resource, a new description) is not.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { breakingAllowed, schemaBreakingChanges, surfaceBreakingChanges, type PackageSchema } from "../../../scripts/upgrade/compatibility";
import { releaseDir } from "../../../scripts/upgrade/programs";
import type { SdkSurface } from "../../../scripts/upgrade/sdkSurface";

const BASELINE = "0.1.0";
const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(releaseDir(BASELINE), file), "utf8")) as T;

const STRATEGY = "adplatform:index:BidStrategy";
const GROUP = "adplatform:index:CampaignGroup";

describe("schemaBreakingChanges", () => {
  const baseline = read<PackageSchema>("schema.json");
  /** The baseline after `edit`, and what the rules say of it. */
  const after = (edit: (schema: Required<PackageSchema>) => void): string[] => {
    const changed = structuredClone(baseline) as Required<PackageSchema>;
    edit(changed);
    return schemaBreakingChanges(baseline, changed);
  };
  const strategy = (schema: Required<PackageSchema>) => schema.resources[STRATEGY]!;

  it("finds nothing between a schema and itself", () => {
    expect(schemaBreakingChanges(baseline, structuredClone(baseline))).toEqual([]);
  });

  it("flags a removed resource, function, input, output and object type", () => {
    expect(after((s) => delete s.resources[STRATEGY])).toEqual([`resource ${STRATEGY}: removed`]);
    expect(after((s) => delete s.functions["adplatform:index:getZone"])).toEqual(["function adplatform:index:getZone: removed"]);
    expect(after((s) => delete s.resources[GROUP]!.inputProperties!.color)).toEqual([`resource ${GROUP}: input \`color\` removed`]);
    expect(after((s) => delete strategy(s).properties!.maxValue)).toEqual([`resource ${STRATEGY}: output \`maxValue\` removed`]);
    const typeName = Object.keys(baseline.types!)[0]!;
    expect(after((s) => delete s.types[typeName])).toEqual([`type ${typeName}: removed`]);
  });

  it("flags a changed type of an input, an output and a function argument", () => {
    expect(after((s) => (strategy(s).inputProperties!.name = { type: "number" }))).toEqual([
      `resource ${STRATEGY}: input \`name\` changed type from string to number`,
      `resource ${STRATEGY}: input \`name\` no longer replaces the resource when it changes`,
    ]);
    expect(after((s) => (strategy(s).properties!.value = { type: "string" }))).toEqual([
      `resource ${STRATEGY}: output \`value\` changed type from number to string`,
    ]);
    expect(after((s) => (s.functions["adplatform:index:getZone"]!.inputs!.properties!.id = { type: "integer" }))).toEqual([
      "function adplatform:index:getZone: argument `id` changed type from string to integer",
    ]);
  });

  it("flags a new required input, and an optional input made required", () => {
    expect(
      after((s) => {
        strategy(s).inputProperties!.budget = { type: "number" };
        strategy(s).requiredInputs!.push("budget");
      }),
    ).toEqual([`resource ${STRATEGY}: input \`budget\` is newly required`]);
    expect(after((s) => strategy(s).requiredInputs!.push("pricingModel"))).toEqual([
      `resource ${STRATEGY}: input \`pricingModel\` is newly required`,
    ]);
    expect(after((s) => s.functions["adplatform:index:getZone"]!.inputs!.required!.push("fields"))).toEqual([
      "function adplatform:index:getZone: argument `fields` is newly required",
    ]);
  });

  it("flags a changed replace-on-change, either way", () => {
    expect(after((s) => delete strategy(s).inputProperties!.name!.willReplaceOnChanges)).toEqual([
      `resource ${STRATEGY}: input \`name\` no longer replaces the resource when it changes`,
    ]);
    const modifier = "adplatform:index:BidModifier";
    expect(after((s) => (s.resources[modifier]!.inputProperties!.value!.willReplaceOnChanges = true))).toEqual([
      `resource ${modifier}: input \`value\` now replaces the resource when it changes`,
    ]);
  });

  it("flags an output no longer always set", () => {
    const required = baseline.resources![STRATEGY]!.required!;
    expect(required.length).toBeGreaterThan(0);
    expect(after((s) => strategy(s).required!.splice(0, 1))).toEqual([
      `resource ${STRATEGY}: output \`${required[0]}\` is no longer always set`,
    ]);
  });

  it("lets through an added optional input, output, resource or function, and new descriptions", () => {
    expect(
      after((s) => {
        strategy(s).inputProperties!.note = { type: "string" };
        strategy(s).properties!.note = { type: "string" };
        strategy(s).required!.push("note");
        s.resources["adplatform:index:Campaign"] = { inputProperties: { name: { type: "string" } }, requiredInputs: ["name"] };
        s.functions["adplatform:index:getCampaign"] = { inputs: { properties: { id: { type: "string" } }, required: ["id"] } };
        strategy(s).inputProperties!.name!.type = "string";
        (strategy(s).inputProperties!.name as { description?: string }).description = "Another description.";
      }),
    ).toEqual([]);
  });
});

describe("surfaceBreakingChanges", () => {
  const baseline = read<SdkSurface>("sdk-surface.json");
  /** The surface as a test edits it. */
  type Editable = Record<
    string,
    { members?: Record<string, string>; union?: string[]; type?: string; signatures?: { parameters: string[]; returns: string }[] }
  >;
  const after = (edit: (surface: Editable) => void): string[] => {
    const changed = structuredClone(baseline) as unknown as Editable;
    edit(changed);
    return surfaceBreakingChanges(baseline, changed as unknown as SdkSurface);
  };

  it("reads the release's surface: argument interfaces are inputs, result interfaces and classes are not", () => {
    expect(baseline.BidStrategyArgs).toMatchObject({ kind: "interface", input: true });
    expect(baseline.GetZoneArgs).toMatchObject({ kind: "interface", input: true });
    expect(baseline.GetZoneResult).toMatchObject({ kind: "interface" });
    expect(baseline.GetZoneResult?.input).toBeUndefined();
    expect(baseline.BidStrategy).toMatchObject({ kind: "class" });
    expect(surfaceBreakingChanges(baseline, structuredClone(baseline))).toEqual([]);
  });

  it("flags a removed export, member, and a changed member type", () => {
    expect(after((s) => delete s.BidStrategy)).toEqual(["class BidStrategy: removed"]);
    expect(after((s) => delete s.BidStrategyArgs!.members!["adoptId?"])).toEqual(["interface BidStrategyArgs: member `adoptId` removed"]);
    expect(after((s) => (s.BidStrategyArgs!.members!.name = "pulumi.Input<number>"))).toEqual([
      "interface BidStrategyArgs: member `name` changed type from pulumi.Input<string> to pulumi.Input<number>",
    ]);
  });

  it("flags a new required input member and an input member made required, not a new optional one", () => {
    expect(after((s) => (s.BidStrategyArgs!.members!.budget = "pulumi.Input<number>"))).toEqual([
      "interface BidStrategyArgs: new required member `budget`",
    ]);
    expect(
      after((s) => {
        const members = s.BidStrategyArgs!.members!;
        members.adoptId = members["adoptId?"]!;
        delete members["adoptId?"];
      }),
    ).toEqual(["interface BidStrategyArgs: member `adoptId` is newly required"]);
    expect(after((s) => (s.BidStrategyArgs!.members!["budget?"] = "pulumi.Input<number>"))).toEqual([]);
  });

  it("lets a member recorded untyped (declared by its initializer) take a type, not a typed one change it", () => {
    expect(baseline.DataSourceNotFoundError!.members!.code).toBe("readonly any");
    expect(after((s) => (s.DataSourceNotFoundError!.members!.code = 'readonly "ADP_ERR_NOT_FOUND"'))).toEqual([]);
    expect(after((s) => (s.DataSourceNotFoundError!.members!.subject = "readonly number"))).toEqual([
      "class DataSourceNotFoundError: member `subject` changed type from readonly string to readonly number",
    ]);
  });

  it("lets a result gain a member, and flags a result member no longer always set", () => {
    const [name, type] = Object.entries(baseline.GetZoneResult!.members!).find(([key]) => !key.endsWith("?"))!;
    expect(after((s) => (s.GetZoneResult!.members!.extra = "string"))).toEqual([]);
    expect(
      after((s) => {
        delete s.GetZoneResult!.members![name];
        s.GetZoneResult!.members![`${name}?`] = type;
      }),
    ).toEqual([`interface GetZoneResult: member \`${name}\` is no longer always set`]);
  });

  it("flags a new required parameter and a changed return type, not a new optional parameter", () => {
    const signature = (s: Editable) => s.getZone!.signatures![0]!;
    expect(after((s) => signature(s).parameters.push("strict?: boolean"))).toEqual([]);
    expect(after((s) => signature(s).parameters.push("strict: boolean"))).toEqual(["function getZone: new required parameter `strict`"]);
    expect(after((s) => (signature(s).returns = "Promise<unknown>"))).toEqual([
      `function getZone: returns Promise<unknown> instead of ${baseline.getZone!.signatures![0]!.returns}`,
    ]);
  });

  it("lets a parameter accept more (a union holding its old type), and flags one that accepts less", () => {
    const [parameter] = baseline.getZone!.signatures![0]!.parameters;
    const [name, type] = parameter!.split(": ");
    const widened = after((s) => (s.getZone!.signatures![0]!.parameters[0] = `${name}: ${type} | { readonly id: number }`));
    expect(widened).toEqual([]);
    expect(after((s) => (s.getZone!.signatures![0]!.parameters[0] = `${name}: { readonly id: number }`))).toEqual([
      `function getZone: parameter \`${name!.replace("?", "")}\` changed type from ${type} to { readonly id: number }`,
    ]);
  });

  it("flags a value removed from a union type, not one added, nor an internal declaration renamed", () => {
    const union = baseline.ZoneField!.union!;
    expect(after((s) => (s.ZoneField!.union = [...union, '"owner"']))).toEqual([]);
    expect(after((s) => (s.ZoneField!.union = union.slice(1)))).toEqual([`type ZoneField: ${union[0]} removed from the union`]);
    expect(baseline.BidStrategyKind?.internal).toBe(true);
    expect(
      after((s) => {
        s.StrategyKind = s.BidStrategyKind!;
        delete s.BidStrategyKind;
      }),
    ).toEqual([]);
  });

  it("flags a changed constant behind a type (a strategy kind removed from BID_STRATEGIES)", () => {
    const constant = baseline.BID_STRATEGIES!;
    expect(constant).toMatchObject({ kind: "variable", internal: true });
    expect(constant.type).toContain('"percent_add"');
    expect(after((s) => (s.BID_STRATEGIES!.type = constant.type!.replace(', "percent_add"', "")))).toEqual([
      expect.stringMatching(/^variable BID_STRATEGIES: changed from .*percent_add.* to /),
    ]);
  });
});

describe("breakingAllowed", () => {
  it("reads the major as npm's caret range does: the first non-zero part", () => {
    expect(breakingAllowed("0.1.0", "0.1.0")).toBe(false);
    expect(breakingAllowed("0.1.0", "0.1.7")).toBe(false);
    expect(breakingAllowed("0.1.0", "0.2.0")).toBe(true);
    expect(breakingAllowed("0.1.0", "1.0.0")).toBe(true);
    expect(breakingAllowed("1.2.3", "1.9.0")).toBe(false);
    expect(breakingAllowed("1.2.3", "2.0.0")).toBe(true);
    expect(breakingAllowed("0.0.3", "0.0.4")).toBe(true);
    expect(() => breakingAllowed("0.1", "0.2.0")).toThrow("not a semantic version");
  });
});
