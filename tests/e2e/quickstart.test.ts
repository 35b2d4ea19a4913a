/**
 * The quickstart example through the real Pulumi CLI, one stack through its whole life: up,
 * an unchanged preview, an in-place PATCH update, a replacement, drift removed by refresh, the
 * exported state, destroy. The cases run in order on the same stack (each `up` costs seconds).
 */
import * as os from "node:os";
import type { Stack } from "@pulumi/pulumi/automation";
import type { StackSession } from "../../scripts/driver/stackSession";
import { callsOf, collector, E2E_TIMEOUT_MS, REPO_ROOT, TOKEN, useE2e } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const ctx = useE2e();
let session: StackSession;
let stack: Stack;

/** Resources in the stack's state by type suffix (e.g. `CampaignGroup`). */
async function stateResources(kind: string): Promise<{ id?: string; outputs?: Record<string, unknown> }[]> {
  const deployment = await stack.exportStack();
  const resources =
    (deployment.deployment as { resources?: { type: string; id?: string; outputs?: Record<string, unknown> }[] }).resources ?? [];
  return resources.filter((r) => r.type === `pulumi-nodejs:dynamic/adplatform:${kind}`);
}

function record(collection: string, match: (r: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
  return ctx.sim.state()[collection]?.find(match);
}

beforeAll(async () => {
  session = await ctx.open();
  stack = session.stack;
});

test("up creates all four resources, reads the data sources, and the simulator stores what was declared", async () => {
  const up = await stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toEqual({ create: 5 });

  const outputs = await stack.outputs();
  expect(outputs.zone.value).toEqual({ id: "1001", name: expect.any(String), type: "display" });
  expect(outputs.segmentCount.value).toBe(3);
  expect(outputs.firstSegment.value).toEqual({ id: "1701", name: expect.any(String) });
  expect(outputs.modifierId.value).toBe("501");
  expect(outputs.variationId.value).toBe("301/2");

  const strategy = record("bidStrategies", (r) => r.id === outputs.strategyId.value);
  expect(strategy).toMatchObject({ name: "Night bids", strategy: "percent_add", value: 12.5, max_value: 3 });
  const group = record("campaignGroups", (r) => r.id === outputs.groupId.value);
  expect(group).toMatchObject({ name: "Spring sale", color: "#22aa44", items: ["5101", "5102"] });
  expect(record("bidModifiers", (r) => r.id === "501")).toMatchObject({
    value: "1.40",
    targeting: { countries: { items: ["DE", "AT", "CH"], op: "in" } },
  });
  expect(record("abTestVariations", (r) => r.ab_test_id === "301" && r.id === "2")).toMatchObject({
    name: "Hero image B",
    settings: { image: { en: "https://cdn.example.com/hero-b.png", de: "https://cdn.example.com/hero-b-de.png" } },
  });
  // One POST each for the new objects; the existing ones adopted with one PATCH each.
  expect(callsOf(ctx.sim, 3)).toHaveLength(1);
  expect(callsOf(ctx.sim, 2)).toHaveLength(1);
  expect(callsOf(ctx.sim, 1)).toHaveLength(1);
  expect(callsOf(ctx.sim, 4)).toHaveLength(1);
});

test("the unchanged program previews with no changes (--expect-no-changes)", async () => {
  const preview = await stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toEqual({ same: 5 });
});

test("a changed PATCH field previews as an in-place update of that property only, and up PATCHes only it", async () => {
  await session.setProjectConfig({ modifierValue: "1.65" });
  const out = collector();
  const preview = await stack.preview({ diff: true, onOutput: out.onOutput });
  expect(preview.changeSummary).toEqual({ same: 4, update: 1 });
  // The --diff display: the modifier's only changed property is `value`.
  expect(out.text).toMatch(/~ pulumi-nodejs:dynamic\/adplatform:BidModifier: \(update\)/);
  expect(out.text).toMatch(/~ value\s*: "1\.40" => "1\.65"/);
  expect(out.text.match(/^\s*[~+-] (?!pulumi)[a-zA-Z]+\s*:/gm)?.map((line) => line.trim().split(/\s/)[1])).toEqual(["value"]);

  const patchesBefore = callsOf(ctx.sim, 1).length;
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ same: 4, update: 1 });
  const patches = callsOf(ctx.sim, 1).slice(patchesBefore);
  expect(patches).toHaveLength(1);
  expect(patches[0]).toMatchObject({ method: "PATCH", path: "/v2/adex/bid-modifiers/501", body: { value: "1.65" }, status: 204 });
  expect(record("bidModifiers", (r) => r.id === "501")).toMatchObject({ value: "1.65" });
});

test("a changed strategy field previews and applies as a replacement: a new strategy is stored", async () => {
  const before = String((await stack.outputs()).strategyId.value);
  await session.setProjectConfig({ strategyValue: "15" });
  const out = collector();
  const preview = await stack.preview({ diff: true, onOutput: out.onOutput });
  expect(preview.changeSummary).toEqual({ same: 4, replace: 1 });
  expect(out.text).toMatch(/\+-pulumi-nodejs:dynamic\/adplatform:BidStrategy: \(replace\)/);

  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ same: 4, replace: 1 });
  const after = String((await stack.outputs()).strategyId.value);
  expect(after).not.toBe(before);
  expect(record("bidStrategies", (r) => r.id === after)).toMatchObject({ name: "Night bids", value: 15 });
  // The old one stays: the API has no delete.
  expect(record("bidStrategies", (r) => r.id === before)).toMatchObject({ value: 12.5 });
});

test("pulumi stack export holds neither the token nor an absolute path of this machine", async () => {
  const exported = await session.cli(["stack", "export", "--stack", stack.name]);
  expect(exported.code).toBe(0);
  const text = exported.stdout;
  expect(text).toContain("pulumi-adplatform/provider"); // the shims are there, so the check reads them
  expect(text).not.toContain(TOKEN);
  for (const local of [REPO_ROOT, os.homedir(), os.tmpdir(), ctx.stateDir]) expect(text).not.toContain(local);
  // The engine hands dynamic providers the whole stack config (pulumi/pulumi#17229), so the default
  // provider's inputs hold the token: encrypted, as the secret it is in the config.
  const resources = (JSON.parse(text) as { deployment: { resources: { type: string; inputs?: Record<string, unknown> }[] } }).deployment
    .resources;
  const defaultProvider = resources.find((r) => r.type === "pulumi:providers:pulumi-nodejs");
  expect(defaultProvider?.inputs?.["adplatform:token"]).toEqual({
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", // Pulumi's secret signature
    ciphertext: expect.any(String),
  });
  // The Automation API's exportStack decrypts (--show-secrets): the token shows only there.
  expect(JSON.stringify(await stack.exportStack())).toContain(TOKEN);
});

test("refresh after the group was deleted on the platform removes it from the state", async () => {
  const groupId = String((await stack.outputs()).groupId.value);
  expect(await stateResources("CampaignGroup")).toHaveLength(1);
  expect(ctx.sim.deleteObject("campaignGroups", groupId)).toBe(true);
  // The group was created moments ago: without the read grace, a group the platform does not show is
  // gone. A refresh configures the provider from the state, so the setting comes from the environment.
  stack.workspace.envVars.ADPLATFORM_READ_GRACE_SECONDS = "0";

  const out = collector();
  const refresh = await stack.refresh({ onOutput: out.onOutput });
  delete stack.workspace.envVars.ADPLATFORM_READ_GRACE_SECONDS;
  expect(refresh.summary.result).toBe("succeeded");
  expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
  expect(out.text).toContain("the group no longer exists on the platform");
  expect(await stateResources("CampaignGroup")).toHaveLength(0);

  // The program still declares it: the next preview creates it again.
  const preview = await stack.preview();
  expect(preview.changeSummary).toEqual({ same: 4, create: 1 });
});

test("destroy removes everything from the stack and prints a warning for each object the API cannot delete", async () => {
  await stack.up(); // recreate the group, so destroy sees all four kinds
  const out = collector();
  const destroy = await stack.destroy({ onOutput: out.onOutput });
  expect(destroy.summary.resourceChanges).toEqual({ delete: 5 });
  expect(out.text).toMatch(/warning: BidStrategy "Night bids" \(id \d+\): the API cannot delete bid strategies/);
  expect(out.text).toMatch(/warning: CampaignGroup "Spring sale" \(id \d+\): the API cannot delete campaign groups/);
  expect(out.text).toMatch(/warning: BidModifier "501": the API cannot delete bid modifiers/);
  expect(out.text).toMatch(/warning: AbTestVariation "2" of A\/B test "301": the API cannot delete A\/B test variations/);
  // Nothing was sent: there is no delete operation to send.
  expect(ctx.sim.requests().operations.unmatched).toBeUndefined();
});
