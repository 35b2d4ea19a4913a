/**
 * The policy pack (policy/) through the real CLI: `pulumi preview --policy-pack policy` on a
 * TypeScript program (the dynamic face, `pulumi-nodejs:dynamic/adplatform:<Kind>`) and a Python
 * program (the native face, `adplatform:index:<Kind>`), each with one violation of every mandatory
 * rule: the preview fails naming each, and nothing reaches the simulator. The same programs fixed
 * preview clean, with the advisory rule (deprecated `tags`) warning without failing; a
 * `--policy-pack-config` file lowering a threshold makes the fixed TypeScript program fail again,
 * run through examples/ci/preview-with-policy with the pack found as npm installs it.
 *
 * The pack runs in the Node.js language host (pulumi-language-nodejs runs policy packs itself) from
 * the built package (bin/policy, `npm run build`), whatever the program's language.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { requireLanguageHost, type CliSession } from "../../scripts/driver/cliSession";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { E2E_TIMEOUT_MS, REPO_ROOT, initDemoStack, openNativePythonProgram, openTypeScriptStack, pulumiIn } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const POLICY_PACK = path.join(REPO_ROOT, "policy");

/** The mandatory rules, each broken once by the programs' `bad` variant. */
const MANDATORY = [
  "bid-strategy-bounds",
  "bid-modifier-bounds",
  "targeting-country-codes",
  "targeting-empty-in",
  "ab-variation-https-images",
  "account-create-cap",
];
const ADVISORY = "bid-modifier-deprecated-tags";

/**
 * The TypeScript program. `bad`: a percent_add of 400, a modifier value of 150 with a country
 * "usa" and an empty `in`, an http image, and 21 created objects on one account (default cap 20).
 * Fixed: the values a team meant; `tags` stays (advisory).
 */
function typeScriptProgram(bad: boolean): string {
  return `import * as adp from "pulumi-adplatform";

new adp.BidStrategy("night-bids", { name: "Night bids", strategy: "percent_add", value: ${bad ? 400 : 40}, maxValue: 3 });
new adp.CampaignGroup("spring-sale", { name: "Spring sale", color: "#22aa44", items: ["5101"] });
for (let i = 0; i < ${bad ? 19 : 1}; i++) {
  new adp.BidStrategy(\`extra-\${i}\`, { name: \`Extra \${i}\`, strategy: "exact", value: 1.25, maxValue: 2 });
}
new adp.BidStrategy("adopted", { name: "Adopted", strategy: "exact", value: 1, maxValue: 1, adoptId: "9001" });
new adp.BidModifier("dach", {
  bidModifierId: "501",
  value: "${bad ? "150" : "1.50"}",
  tags: ["t-1"],
  targeting: {
    countries: { items: ["DE", "${bad ? "usa" : "US"}"], op: "in" },
    device_types: { items: ${bad ? "[]" : '["mobile"]'}, op: "in" },
  },
});
new adp.AbTestVariation("hero-image", { abTestId: "301", variationId: "2", settings: { image: { en: "${bad ? "http" : "https"}://cdn.example.com/hero.png" } } });
`;
}

/** The Python program on the native SDK: the same mistakes (21 creates: 20 strategies and a group). */
function pythonProgram(bad: boolean): string {
  return `import pulumi_adplatform as adplatform

adplatform.BidStrategy("night-bids", name="Night bids", strategy="percent_add", value=${bad ? 400 : 40}, max_value=3)
adplatform.CampaignGroup("spring-sale", name="Spring sale", color="#22aa44", items=["5101"])
for i in range(${bad ? 19 : 1}):
    adplatform.BidStrategy(f"extra-{i}", name=f"Extra {i}", strategy="exact", value=1.25, max_value=2)
adplatform.BidStrategy("adopted", name="Adopted", strategy="exact", value=1, max_value=1, adopt_id="9001")
adplatform.BidModifier(
    "dach",
    bid_modifier_id="501",
    value="${bad ? "150" : "1.50"}",
    tags=["t-1"],
    targeting={
        "countries": {"items": ["DE", "${bad ? "usa" : "US"}"], "op": "in"},
        "device_types": {"items": ${bad ? "[]" : '["mobile"]'}, "op": "in"},
    },
)
adplatform.AbTestVariation(
    "hero-image",
    ab_test_id="301",
    variation_id="2",
    settings={"image": {"en": "${bad ? "http" : "https"}://cdn.example.com/hero.png"}},
)
`;
}

let sim: RunningSimulator;
let workDir: string;
let tsCli: CliSession;
let pyCli: CliSession;

/** Every call the simulator logged, on any operation. */
function loggedCalls(): number {
  return Object.values(sim.requests().operations).reduce((sum, op) => sum + op.calls.length, 0);
}

/** `pulumi preview --policy-pack policy [more]`; its exit code and its whole output. */
async function previewWithPack(cli: CliSession, more: string[] = []): Promise<{ code: number; output: string }> {
  const result = await pulumiIn(cli, ["preview", "--policy-pack", POLICY_PACK, ...more], { mayFail: true });
  return { code: result.code, output: `${result.stdout}\n${result.stderr}` };
}

/**
 * The policies the output lists at `level`: `- [mandatory]  bid-strategy-bounds  (...)` in the
 * "Policies:" section, `adplatform@v0.1.0 [mandatory]  bid-strategy-bounds` with --diff.
 */
function reported(output: string, level: "mandatory" | "advisory"): string[] {
  return [...new Set([...output.matchAll(new RegExp(`\\[${level}\\]\\s+([\\w-]+)`, "g"))].map((m) => m[1]!))].sort();
}

beforeAll(async () => {
  requireLanguageHost();
  sim = await startSimulator();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-policy-"));

  tsCli = (
    await openTypeScriptStack(
      sim.url,
      { name: "adplatform-policy-ts", description: "The policy pack on the dynamic face", index: typeScriptProgram(true) },
      { dir: path.join(workDir, "ts") },
    )
  ).cli;

  const pyDir = path.join(workDir, "py");
  fs.mkdirSync(pyDir);
  pyCli = openNativePythonProgram(pyDir, {
    name: "adplatform-policy-py",
    description: "The policy pack on the native face",
    main: pythonProgram(true),
  }).cli;
  await initDemoStack(pyCli, sim.url);
});

afterAll(async () => {
  tsCli?.close();
  pyCli?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  await sim?.close();
});

describe.each([
  ["TypeScript (dynamic face)", () => tsCli, "index.ts", typeScriptProgram],
  ["Python (native face)", () => pyCli, "__main__.py", pythonProgram],
])("%s", (_label, cli, file, program) => {
  it("fails the preview naming every mandatory rule, and sends nothing", async () => {
    const { code, output } = await previewWithPack(cli());
    expect(code).not.toBe(0);
    expect(reported(output, "mandatory")).toEqual([...MANDATORY].sort());
    expect(output).toContain('BidStrategy "night-bids": value 400 is above 100');
    expect(output).toContain('BidModifier "dach": value 150 is above 10');
    expect(output).toContain('targeting.countries.items[1] "usa" is not a country code');
    expect(output).toContain('targeting.device_types has op "in" and no items');
    expect(output).toContain('settings.image.en "http://cdn.example.com/hero.png" is not an https URL');
    expect(output).toMatch(/the stack creates 21 objects, above the cap of 20 \(maxCreates\)/);
    expect(loggedCalls()).toBe(0);
  });

  it("previews clean once fixed, the advisory rule only warning", async () => {
    fs.writeFileSync(path.join(cli().dir, file), program(false));
    const { code, output } = await previewWithPack(cli());
    expect({ code, mandatory: reported(output, "mandatory"), advisory: reported(output, "advisory") }).toEqual({
      code: 0,
      mandatory: [],
      advisory: [ADVISORY],
    });
    expect(output).toContain('BidModifier "dach": tags is deprecated by the API; use containers instead.');
    expect(loggedCalls()).toBe(0);
  });
});

it("follows a --policy-pack-config file through examples/ci/preview-with-policy: a lower maxPercentAdd fails the fixed program", async () => {
  // The script finds the pack where npm puts it, node_modules/pulumi-adplatform/policy (the
  // program's link to this checkout), as a CI job would.
  const config = path.join(workDir, "policy-config.json");
  fs.writeFileSync(config, JSON.stringify({ "bid-strategy-bounds": { maxPercentAdd: 30 } }));
  const script = path.join(REPO_ROOT, "examples", "ci", "preview-with-policy");
  const run = (env: Record<string, string>) =>
    spawnSync("bash", [script, "dev"], { cwd: tsCli.dir, env: { ...process.env, ...tsCli.env, ...env }, encoding: "utf8" });

  const failed = run({ POLICY_PACK_CONFIG: config });
  expect(failed.status).toBe(1);
  expect(reported(`${failed.stdout}\n${failed.stderr}`, "mandatory")).toEqual(["bid-strategy-bounds"]);
  expect(failed.stdout).toContain('BidStrategy "night-bids": value 40 is above 30, the highest percent_add in percent (maxPercentAdd).');

  const passed = run({});
  expect({ status: passed.status, mandatory: reported(passed.stdout, "mandatory") }).toEqual({ status: 0, mandatory: [] });
  expect(loggedCalls()).toBe(0);
});
