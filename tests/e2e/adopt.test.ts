/**
 * Adopting objects that already exist on the platform: the `adoptId` input, and what Pulumi's own
 * `import` resource option does with these dynamic resources (README, "What `import` does with these resources").
 */
import * as pulumi from "@pulumi/pulumi";
import { adplatformPackage, callsOf, collector, E2E_TIMEOUT_MS, useE2e } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const ctx = useE2e();

beforeEach(() => ctx.sim.reset());

test("adoptId takes over the seeded group and strategy: no POST, the stack holds their ids", async () => {
  const adp = adplatformPackage();
  const program = async () => {
    // The seeded group 701 and strategy 601 with their platform values (simulator/fixtures/adex.ts).
    const group = new adp.CampaignGroup("summer", { name: "Summer sale", color: "#FF8800", items: ["5001", "5002", "5003"], adoptId: "701" });
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

test("Pulumi's import resource option cannot adopt a dynamic resource: the up fails and nothing is sent", async () => {
  const adp = adplatformPackage();
  const program = async () => {
    const group = new adp.CampaignGroup(
      "retargeting",
      { name: "Retargeting", color: "#3366cc", items: ["5010"] },
      { import: "702" } satisfies pulumi.CustomResourceOptions,
    );
    return { groupId: group.id };
  };
  const { stack } = await ctx.open({ program });
  let failure: unknown;
  try {
    await stack.up();
  } catch (err) {
    failure = err;
  }
  // The engine asks the provider to read the object, but a resource being imported has no state
  // yet, so no serialized `__provider`: @pulumi/pulumi's dynamic-provider plugin fails on the missing
  // property (pulumi/pulumi#3550, #7534, #17698; open as #16175). Nothing of ours runs.
  expect(failure).toBeInstanceOf(Error);
  expect(String((failure as Error).message)).toMatch(/CampaignGroup retargeting \*\*importing failed\*\* error: Cannot read properties of undefined \(reading 'toJavaScript'\)/);
  const state = JSON.stringify((await stack.exportStack()).deployment);
  expect(state).not.toContain("adplatform:CampaignGroup");
  expect(callsOf(ctx.sim, 19)).toHaveLength(0);
  expect(callsOf(ctx.sim, 2)).toHaveLength(0);
});
