/**
 * The TypeScript example projects users copy (examples/yaml runs in distPluginArchive.test.ts,
 * examples/ci in policyPack.test.ts): each type-checks with its own tsconfig, resolves
 * `pulumi-adplatform` by name from its folder exactly as the dynamic-provider plugin does, and the
 * zone-targeted and two-accounts examples deploy against the simulator.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { linkPackage, readProject } from "../../scripts/driver/project";
import { callsOf, collector, E2E_TIMEOUT_MS, EXAMPLES_DIR, REPO_ROOT, useE2e } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const ctx = useE2e();

const EXAMPLES = fs
  .readdirSync(EXAMPLES_DIR)
  .filter(
    (name) => fs.existsSync(path.join(EXAMPLES_DIR, name, "Pulumi.yaml")) && fs.existsSync(path.join(EXAMPLES_DIR, name, "tsconfig.json")),
  );
const ZONE_EXAMPLE = path.join(EXAMPLES_DIR, "zone-targeted-bid-modifier");
const TWO_ACCOUNTS_EXAMPLE = path.join(EXAMPLES_DIR, "two-accounts");

function run(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : 1, stdout, stderr });
    });
  });
}

test("there are example projects, the quickstart among them, and the root Pulumi.yaml runs the quickstart", () => {
  expect(EXAMPLES).toEqual(expect.arrayContaining(["quickstart", "zone-targeted-bid-modifier", "two-accounts"]));
  const root = readProject(REPO_ROOT);
  expect(root.programDir).toBe(path.join(EXAMPLES_DIR, "quickstart"));
  expect(root.name).toBe(readProject(root.programDir).name);
});

test.each(EXAMPLES)("%s type-checks with its own tsconfig, importing the package by its published name", async (name) => {
  const dir = path.join(EXAMPLES_DIR, name);
  linkPackage(dir);
  const source = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
  expect(source).toMatch(/from "pulumi-adplatform"/);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(["pulumi-adplatform", "@pulumi/pulumi"]));
  const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
  const result = await run(process.execPath, [tsc, "--noEmit", "-p", path.join(dir, "tsconfig.json")], dir);
  expect(result.stdout + result.stderr).toBe("");
  expect(result.code).toBe(0);
});

test.each(EXAMPLES)("%s resolves pulumi-adplatform/provider by name the way the dynamic-provider plugin does", async (name) => {
  const dir = path.join(EXAMPLES_DIR, name);
  linkPackage(dir);
  // The plugin evaluates the serialized shim with require-from-string in its working directory (the
  // program folder): the same call, in a plain Node process started there.
  const requireFromString = require.resolve("require-from-string", { paths: [path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi")] });
  const script =
    `process.stdout.write(require(${JSON.stringify(requireFromString)})` +
    `('module.exports = require.resolve("pulumi-adplatform/provider")'))`;
  const result = await run(process.execPath, ["-e", script], dir);
  expect(result.stderr).toBe("");
  expect(fs.realpathSync(result.stdout)).toBe(path.join(fs.realpathSync(REPO_ROOT), "bin", "provider", "index.js"));
});

test("the zone-targeted example points modifier 502 at the zone's countries; a config change makes a targeting-only PATCH", async () => {
  ctx.sim.reset();
  const session = await ctx.open({ projectDir: ZONE_EXAMPLE });
  const { stack } = session;
  const up = await stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 2 });
  const outputs = await stack.outputs();
  expect(outputs.countries.value).toEqual(["AT", "CH", "DE"]); // zone 1001's countries, sorted
  expect(ctx.sim.state().bidModifiers.find((m) => m.id === "502")).toMatchObject({
    name: `Countries of zone ${String(outputs.zoneName.value)}`,
    value: "1.25",
    max_value: "2.5000",
    targeting: { countries: { items: ["AT", "CH", "DE"], op: "in" } },
  });
  // getCountries read once, however often the program uses it.
  expect(callsOf(ctx.sim, 17)).toHaveLength(1);

  // "fr" is upper-cased, "XX" is not a country the platform knows and is dropped.
  await session.setProjectConfig({ extraCountries: '["fr", "XX"]' });
  const out = collector();
  const preview = await stack.preview({ diff: true, onOutput: out.onOutput });
  expect(preview.changeSummary).toEqual({ same: 1, update: 1 });
  expect(out.text).toMatch(/~ pulumi-nodejs:dynamic\/adplatform:BidModifier: \(update\)/);
  expect(out.text).toMatch(/~ targeting\s*: \{\s*~ countries: \{\s*~ items: \[[\s\S]*?\+ \[3\]: "FR"/);
  const before = callsOf(ctx.sim, 1).length;
  await stack.up();
  const patches = callsOf(ctx.sim, 1).slice(before);
  expect(patches.map((call) => call.body)).toEqual([{ targeting: { countries: { items: ["AT", "CH", "DE", "FR"], op: "in" } } }]);
  await stack.destroy();
});

test("the two-accounts example writes brand A to the stack config's account and brand B to its own", async () => {
  ctx.sim.reset();
  const session = await ctx.open({ projectDir: TWO_ACCOUNTS_EXAMPLE });
  await session.stack.setConfig("brandBToken", { value: "second-token", secret: true });
  const up = await session.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  const outputs = await session.stack.outputs();
  const ids = (account: string, collection: "campaignGroups" | "bidStrategies") =>
    ctx.sim.state(account)[collection].map((r) => String(r.id));
  expect(ids("demo", "campaignGroups")).toContain(outputs["brand-a-groupId"]!.value);
  expect(ids("second", "campaignGroups")).toContain(outputs["brand-b-groupId"]!.value);
  expect(ids("demo", "bidStrategies")).toContain(outputs["brand-a-strategyId"]!.value);
  expect(ids("second", "bidStrategies")).toContain(outputs["brand-b-strategyId"]!.value);
  expect(ids("demo", "campaignGroups")).not.toContain(outputs["brand-b-groupId"]!.value);
  const exported = await session.cli(["stack", "export", "--stack", session.stack.name]);
  expect(exported.stdout).not.toContain("second-token");
  await session.stack.destroy();
});
