/**
 * Adopting objects that already exist on the platform: the `adoptId` input, and Pulumi's `import`
 * resource option, which the package turns into the same adoption (docs/importing-and-adopting.md).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { requireLanguageHost, openCliSession } from "../../scripts/driver/cliSession";
import { linkPackage } from "../../scripts/driver/project";
import { adplatformPackage, callsOf, collector, E2E_TIMEOUT_MS, REPO_ROOT, TOKEN, useE2e } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const ctx = useE2e();

beforeEach(() => ctx.sim.reset());

test("adoptId takes over the seeded group and strategy: no POST, the stack holds their ids", async () => {
  const adp = adplatformPackage();
  const program = async () => {
    // The seeded group 701 and strategy 601 with their platform values (simulator/fixtures/adex.ts).
    const group = new adp.CampaignGroup("summer", {
      name: "Summer sale",
      color: "#FF8800",
      items: ["5001", "5002", "5003"],
      adoptId: "701",
    });
    const strategy = new adp.BidStrategy("exact", { name: "Exact CPC", strategy: "exact", value: 0.4, maxValue: 0.9, adoptId: "601" });
    return { groupId: group.id, groupSize: group.size, strategyId: strategy.id };
  };
  const { stack } = await ctx.open({ program });
  const out = collector();
  const up = await stack.up({ onOutput: out.onOutput });
  expect(up.summary.resourceChanges).toEqual({ create: 3 });
  const outputs = await stack.outputs();
  expect(outputs.groupId.value).toBe("701");
  expect(outputs.groupSize.value).toBe(3); // read with GET op 19 while adopting
  expect(outputs.strategyId.value).toBe("601");
  expect(callsOf(ctx.sim, 2)).toHaveLength(0);
  expect(callsOf(ctx.sim, 3)).toHaveLength(0);
  expect(callsOf(ctx.sim, 19)).toHaveLength(1);
  // A strategy cannot be read: adopting trusts the declared values, and says so.
  expect(out.text).toMatch(/warning: .*601/);

  // Adopted objects then behave as created ones: no changes, and destroy leaves them on the platform.
  expect((await stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 3 });
  await stack.destroy();
  expect(ctx.sim.state().campaignGroups.map((g) => g.id)).toContain("701");
});

test("adoptId of a group whose colour differs from the declared one fails the create, before any POST", async () => {
  const adp = adplatformPackage();
  const program = async () => {
    const group = new adp.CampaignGroup("summer", { name: "Summer sale", color: "#000000", items: ["5001"], adoptId: "701" });
    return { groupId: group.id };
  };
  const { stack } = await ctx.open({ program });
  await expect(stack.up()).rejects.toThrow(/701[\s\S]*colou?r/);
  expect(callsOf(ctx.sim, 2)).toHaveLength(0);
});

describe("the import option is taken as adoption", () => {
  test("a group and a strategy adopted with no POST and one GET op 19, a modifier and a variation patched as always", async () => {
    const adp = adplatformPackage();
    const program = async () => {
      const group = new adp.CampaignGroup(
        "summer",
        { name: "Summer sale", color: "#FF8800", items: ["5001", "5002", "5003"] },
        { import: "701" },
      );
      const strategy = new adp.BidStrategy("exact", { name: "Exact CPC", strategy: "exact", value: 0.4, maxValue: 0.9 }, { import: "601" });
      // Other options stay in force beside import.
      const modifier = new adp.BidModifier("dach", { bidModifierId: "501", value: "1.40" }, { import: "501", dependsOn: [group] });
      const variation = new adp.AbTestVariation("hero", { abTestId: "301", variationId: "2", name: "Hero B" }, { import: "301/2" });
      return { groupId: group.id, groupSize: group.size, strategyId: strategy.id, modifierId: modifier.id, variationId: variation.id };
    };
    const { stack } = await ctx.open({ program });
    const out = collector();
    const up = await stack.up({ onOutput: out.onOutput });
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    const outputs = await stack.outputs();
    expect(outputs.groupId.value).toBe("701");
    expect(outputs.groupSize.value).toBe(3); // read with GET op 19 while adopting
    expect(outputs.strategyId.value).toBe("601");
    expect(outputs.modifierId.value).toBe("501");
    expect(outputs.variationId.value).toBe("301/2");
    expect(callsOf(ctx.sim, 2)).toHaveLength(0);
    expect(callsOf(ctx.sim, 3)).toHaveLength(0);
    expect(callsOf(ctx.sim, 19)).toHaveLength(1);
    expect(callsOf(ctx.sim, 1).map((call) => call.body)).toEqual([{ value: "1.40" }]);
    expect(callsOf(ctx.sim, 4).map((call) => call.body)).toEqual([{ name: "Hero B" }]);
    // What happened, on each resource; and nothing of Pulumi's failed import.
    expect(out.text).toContain('CampaignGroup "summer": import "701" was taken as adoptId: the group is read (GET /v2/adex/groups/{id})');
    expect(out.text).toContain('BidStrategy "exact": import "601" was taken as adoptId');
    expect(out.text).toContain('BidModifier "dach": import "501" names the declared bidModifierId');
    expect(out.text).toContain('AbTestVariation "hero": import "301/2" names the declared abTestId and variationId');
    expect(out.text).not.toContain("toJavaScript");

    // Plain creates in the state, with adoptId recorded; then no changes on the next run.
    const resources = (await stack.exportStack()).deployment.resources as { type: string; id?: string; inputs?: Record<string, unknown> }[];
    expect(resources.find((r) => r.type.endsWith(":CampaignGroup"))).toMatchObject({ id: "701", inputs: { adoptId: "701" } });
    expect(resources.find((r) => r.type.endsWith(":BidStrategy"))).toMatchObject({ id: "601", inputs: { adoptId: "601" } });
    expect((await stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 5 });
  });
});

/** A program directory of its own (outside the repository) with `index.js` as its program. */
function writeJsProgram(source: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-import-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: adplatform-import\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "adplatform-import", main: "index.js" }));
  fs.writeFileSync(path.join(dir, "index.js"), source);
  // This repository's @pulumi/pulumi (one module instance with the package's) and the package itself.
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "@pulumi"), path.join(dir, "node_modules", "@pulumi"), "dir");
  linkPackage(dir);
  return dir;
}

test("an import id that is not the modifier's bidModifierId fails the preview with what to write; nothing is sent", async () => {
  // Through the CLI and the language host, as a user runs it: the constructor's error ends the
  // program process. (An inline program would throw inside this Jest process, whose own handler of
  // unhandled rejections fails the test whatever the preview reports.)
  requireLanguageHost();
  const dir = writeJsProgram(
    'const adp = require("pulumi-adplatform");\n' +
      'new adp.BidModifier("dach", { bidModifierId: "501", value: "1.40" }, { import: "502" });\n',
  );
  const cli = openCliSession(dir);
  try {
    for (const args of [
      ["stack", "init", "dev"],
      ["config", "set", "adplatform:baseUrl", ctx.sim.url],
      ["config", "set", "--secret", "adplatform:token", TOKEN],
    ]) {
      expect((await cli.pulumi(args)).code).toBe(0);
    }
    const preview = await cli.pulumi(["preview"]);
    expect(preview.code).not.toBe(0);
    const output = preview.stdout + preview.stderr;
    expect(output).toContain(
      'Error: BidModifier "dach": the import option "502" does not name the declared modifier (bidModifierId "501"). ' +
        "This resource always takes over the modifier its ids name, so the option may only repeat them (Pulumi's import " +
        'option does not work for dynamic resources): write bidModifierId: "502" to manage modifier "502", or remove the import option.',
    );
    expect(output).not.toMatch(/TypeError|toJavaScript/);
    expect(ctx.sim.requests().total).toBe(0);
  } finally {
    cli.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
