/**
 * Pulumi's `import` resource option on the four classes (sdk/resources/importOption.ts): declared
 * under `pulumi.runtime.setMocks`, the option never reaches the engine, a group's or strategy's id
 * becomes `adoptId`, a modifier's or variation's id must name the declared object, and a
 * contradicting id throws from the constructor with the resource's name, what was given and what
 * to write.
 */
import * as pulumi from "@pulumi/pulumi";
import { importAsAdoption } from "../../../sdk/resources/importOption";
import { recordRegistrations } from "../../helpers/recordingMocks";

const registered = recordRegistrations("lifecycle");

// Loaded after the mocks are set, as a program's resources are created after the runtime is ready.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require("../../../sdk") as typeof import("../../../sdk");

const value = <T>(output: pulumi.Output<T>): Promise<T> => new Promise((resolve) => output.apply(resolve));

/** What the engine was asked to register for resource `name` (after its inputs resolved). */
async function registration(resource: pulumi.CustomResource, name: string): Promise<pulumi.runtime.MockResourceArgs> {
  await value(resource.urn);
  return registered.find((r) => r.name === name)!;
}

const summer = { name: "Summer sale", color: "#FF8800", items: ["5001", "5002", "5003"] };
const exact = { name: "Exact CPC", strategy: "exact" as const, value: 0.4, maxValue: 0.9 };
const info = jest.spyOn(pulumi.log, "info").mockImplementation(() => Promise.resolve());

beforeEach(() => info.mockClear());

describe("CampaignGroup and BidStrategy: the import id becomes adoptId", () => {
  it("registers adoptId, no import id, and says so on the resource", async () => {
    const group = new sdk.CampaignGroup("summer", summer, { import: "701" });
    const strategy = new sdk.BidStrategy("exact", exact, { import: "601" });
    const groupArgs = await registration(group, "summer");
    const strategyArgs = await registration(strategy, "exact");
    expect(groupArgs.inputs.adoptId).toBe("701");
    expect(strategyArgs.inputs.adoptId).toBe("601");
    // The engine's import id: unset, so the engine plans a create (which adopts), not a read.
    expect(groupArgs.id).toBeFalsy();
    expect(strategyArgs.id).toBeFalsy();
    expect(info).toHaveBeenCalledWith(
      expect.stringMatching(/^CampaignGroup "summer": import "701" was taken as adoptId: the group is read/),
      group,
    );
    expect(info).toHaveBeenCalledWith(
      expect.stringMatching(/^BidStrategy "exact": import "601" was taken as adoptId:.*cannot read bid strategies/),
      strategy,
    );
    expect(
      info.mock.calls.every(([message]) =>
        message.endsWith("Pulumi's import option does not work for dynamic resources, so the option is not passed to the engine."),
      ),
    ).toBe(true);
  });

  it("accepts an adoptId equal to the import id", async () => {
    const same = new sdk.CampaignGroup("same", { ...summer, adoptId: "701" }, { import: "701" });
    expect((await registration(same, "same")).inputs.adoptId).toBe("701");
  });

  it("throws from the constructor when adoptId names another object, naming both and what to write", () => {
    expect(() => new sdk.CampaignGroup("both", { ...summer, adoptId: "702" }, { import: "701" })).toThrow(
      'CampaignGroup "both": the import option "701" and adoptId "702" do not name the same group; this package takes import as ' +
        'adoptId (Pulumi\'s import option does not work for dynamic resources). Keep one: write adoptId: "701" without the ' +
        'import option, or remove the import option to keep adoptId "702".',
    );
    expect(() => new sdk.BidStrategy("both", { ...exact, adoptId: "602" }, { import: "601" })).toThrow(
      /^BidStrategy "both": the import option "601" and adoptId "602" do not name the same strategy/,
    );
    expect(registered.find((r) => r.name === "both")).toBeUndefined();
  });
});

describe("BidModifier and AbTestVariation: the import id must name the declared object", () => {
  it('accepts the declared bidModifierId and "<abTestId>/<variationId>", registering no import id', async () => {
    const modifier = new sdk.BidModifier("dach", { bidModifierId: "501", value: 1.25 }, { import: "501" });
    const variation = new sdk.AbTestVariation("hero", { abTestId: "301", variationId: "2", name: "B" }, { import: "301/2" });
    const modifierArgs = await registration(modifier, "dach");
    const variationArgs = await registration(variation, "hero");
    expect(modifierArgs.inputs).toMatchObject({ bidModifierId: "501", value: 1.25 });
    expect(modifierArgs.inputs.adoptId).toBeUndefined();
    expect(variationArgs.inputs).toMatchObject({ abTestId: "301", variationId: "2", name: "B" });
    expect(modifierArgs.id).toBeFalsy();
    expect(variationArgs.id).toBeFalsy();
    expect(info).toHaveBeenCalledWith(
      expect.stringMatching(/^BidModifier "dach": import "501" names the declared bidModifierId/),
      modifier,
    );
    expect(info).toHaveBeenCalledWith(
      expect.stringMatching(/^AbTestVariation "hero": import "301\/2" names the declared abTestId and variationId/),
      variation,
    );
  });

  it("throws from the constructor for another modifier id, naming the declared one and what to write", () => {
    expect(() => new sdk.BidModifier("other", { bidModifierId: "501", value: 1 }, { import: "502" })).toThrow(
      'BidModifier "other": the import option "502" does not name the declared modifier (bidModifierId "501"). This ' +
        "resource always takes over the modifier its ids name, so the option may only repeat them (Pulumi's import option " +
        'does not work for dynamic resources): write bidModifierId: "502" to manage modifier "502", or remove the import option.',
    );
    expect(registered.find((r) => r.name === "other")).toBeUndefined();
  });

  it('throws for another variation, and for an id that is not "<abTestId>/<variationId>"', () => {
    expect(() => new sdk.AbTestVariation("v", { abTestId: "301", variationId: "2", name: "B" }, { import: "302/1" })).toThrow(
      new RegExp(
        [
          String.raw`^AbTestVariation "v": the import option "302/1" does not name the declared variation `,
          String.raw`\(abTestId "301", variationId "2"\)\. .*write abTestId: "302", variationId: "1" to manage variation "302/1"`,
        ].join(""),
      ),
    );
    expect(() => new sdk.AbTestVariation("v", { abTestId: "301", variationId: "2", name: "B" }, { import: "2" })).toThrow(
      new RegExp(
        [
          String.raw`^AbTestVariation "v": the import option "2" must be "<abTestId>/<variationId>", the variation's id\. `,
          String.raw`.*write import: "301/2", or remove the import option\.$`,
        ].join(""),
      ),
    );
    expect(() => new sdk.AbTestVariation("v", { abTestId: "301", variationId: "2", name: "B" }, { import: "301/2/3" })).toThrow(
      /must be "<abTestId>\/<variationId>"/,
    );
  });
});

describe("importAsAdoption", () => {
  it("keeps every other option and drops only import", () => {
    const parent = new sdk.BidModifier("parent", { bidModifierId: "509", value: 1 });
    const opts: pulumi.CustomResourceOptions = { import: "701", protect: true, parent, ignoreChanges: ["items"], dependsOn: [parent] };
    const result = importAsAdoption("CampaignGroup", "summer", summer, opts);
    expect(result.opts).toEqual({ protect: true, parent, ignoreChanges: ["items"], dependsOn: [parent] });
    expect(result.args).toEqual({ ...summer, adoptId: "701" });
    expect(opts.import).toBe("701"); // the caller's object is left as it was
  });

  it("leaves args and options alone without the option, and drops an empty import id as Pulumi ignores it", () => {
    const opts = { protect: true };
    expect(importAsAdoption("BidStrategy", "exact", exact, opts)).toEqual({ args: exact, opts });
    expect(importAsAdoption("BidStrategy", "exact", exact, undefined)).toEqual({ args: exact, opts: undefined });
    expect(importAsAdoption("BidStrategy", "exact", exact, { import: "", protect: true })).toEqual({
      args: exact,
      opts: { protect: true },
    });
  });

  it("refuses an id to compare that is computed (an Output or a promise), saying what to write", () => {
    expect(() => importAsAdoption("BidModifier", "later", { bidModifierId: pulumi.output("501") }, { import: "501" })).toThrow(
      'BidModifier "later": the import option "501" is compared with bidModifierId when the resource is declared, but ' +
        "bidModifierId is a computed value (an Output or a promise). Pulumi's import option does not work for dynamic " +
        "resources; remove the import option (this resource always takes over the modifier its ids name), or write " +
        'bidModifierId: "501".',
    );
    expect(() =>
      importAsAdoption("AbTestVariation", "v", { abTestId: Promise.resolve("301"), variationId: "2" }, { import: "301/2" }),
    ).toThrow(/the import option "301\/2" is compared with abTestId when the resource is declared/);
    expect(() => importAsAdoption("CampaignGroup", "g", { adoptId: pulumi.output("701") }, { import: "701" })).toThrow(
      /; remove the import option \(adoptId already adopts\), or write adoptId: "701" without it\.$/,
    );
  });

  it("fills an empty adoptId, which would adopt nothing", () => {
    expect(importAsAdoption("BidStrategy", "exact", { ...exact, adoptId: "" }, { import: "601" }).args.adoptId).toBe("601");
  });
});
