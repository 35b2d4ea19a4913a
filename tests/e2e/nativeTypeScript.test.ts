/**
 * The native face through the real CLI with a TypeScript program: the generated SDK
 * (sdks/nodejs, built by scripts/native/build-ts-sdk) and the plugin `pulumi-resource-adplatform`
 * found through `plugins.providers` in Pulumi.yaml. The program creates a strategy and a group,
 * reads a zone, and creates a group in a second account through an explicit provider; a stack
 * configured by hand has an unusable base URL refused at preview, and keeps a token set in clear
 * encrypted in its state; then
 * `pulumi import` of group 701 writes its declaration, which is added to the program, compiles, and
 * previews with no changes; group 702 is taken over with the `import` resource option; and a
 * `--target-replace` right after a create shows how the create journal treats it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { requireLanguageHost, type CliSession } from "../../scripts/driver/cliSession";
import { startSimulator, type RunningSimulator } from "../../simulator";
import {
  E2E_TIMEOUT_MS,
  SECOND_TOKEN,
  TOKEN,
  expectTokenEncryptedInState,
  openTypeScriptStack,
  pulumiIn,
  setTokenInClear,
  type TypeScriptStack,
} from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as adplatform from "pulumi-adplatform-native";

const strategy = new adplatform.BidStrategy("night-bids", { name: "Night bids", strategy: "percent_add", value: 12.5, maxValue: 3 });
const group = new adplatform.CampaignGroup("spring-sale", { name: "Spring sale", color: "#22aa44", items: ["5101", "5102"] });
const zone = adplatform.getZoneOutput({ id: "1001" });
// A second account through an explicit provider instance.
const config = new pulumi.Config();
const second = new adplatform.Provider("second", { baseUrl: config.require("secondBaseUrl"), token: config.requireSecret("secondToken") });
const secondGroup = new adplatform.CampaignGroup("second-group", { name: "Second", color: "#010203", items: ["1"] }, { provider: second });

export const strategyId = strategy.id;
export const groupId = group.id;
export const groupCompany = group.companyId;
export const zoneName = zone.name;
export const secondCompany = secondGroup.companyId;
`;

let sim: RunningSimulator;
let stack: TypeScriptStack;
let dir: string;
let cli: CliSession;

/** The output of `pulumi <args>`; a non-zero exit fails the test. */
const pulumi = async (args: string[]): Promise<string> => (await pulumiIn(cli, args)).stdout;

beforeAll(async () => {
  requireLanguageHost();
  sim = await startSimulator();
  stack = await openTypeScriptStack(
    sim.url,
    { name: "adplatform-native-ts", description: "The native face from TypeScript", index: PROGRAM },
    { face: "native", secrets: [SECOND_TOKEN] },
  );
  ({ dir, cli } = stack);
  await pulumi(["config", "set", "secondBaseUrl", sim.url]);
  await pulumi(["config", "set", "--secret", "secondToken", SECOND_TOKEN]);
});

afterAll(async () => {
  stack?.close();
  await sim?.close();
});

it("creates a strategy and a group and reads a zone, and a group in a second account through an explicit provider", async () => {
  await pulumi(["up", "--yes", "--skip-preview"]);
  const outputs = JSON.parse(await pulumi(["stack", "output", "--json", "--show-secrets"]));
  expect(outputs).toMatchObject({
    strategyId: expect.stringMatching(/^\d+$/),
    groupId: expect.stringMatching(/^\d+$/),
    zoneName: expect.any(String),
  });
  expect(outputs.groupCompany).toBe("7001");
  expect(outputs.secondCompany).toBe("7002");
  expect(sim.state("second").campaignGroups?.some((g: { name?: string }) => g.name === "Second")).toBe(true);
  const state = sim.state();
  expect(state.bidStrategies?.some((s) => s.id === outputs.strategyId)).toBe(true);
  expect(state.campaignGroups?.some((g) => g.id === outputs.groupId)).toBe(true);
  await pulumi(["preview", "--expect-no-changes"]);
  // A refresh reads the group back (GET op 19) and leaves nothing to change.
  await pulumi(["refresh", "--yes", "--skip-preview"]);
  await pulumi(["preview", "--expect-no-changes"]);
  const stack = JSON.parse(await pulumi(["stack", "export"]));
  const types = stack.deployment.resources.map((r: { type: string }) => r.type);
  expect(types).toEqual(expect.arrayContaining(["adplatform:index:BidStrategy", "adplatform:index:CampaignGroup"]));
  const group = stack.deployment.resources.find((r: { id?: string }) => r.id === outputs.groupId);
  expect(group.outputs).toMatchObject({ size: 2, items: ["5101", "5102"] });
});

it("refuses an unusable base URL at preview, and keeps a token set in clear encrypted in the state", async () => {
  const plain = ["--stack", "plain"];
  await pulumi(["stack", "init", "plain", "--no-select"]);
  await setTokenInClear(cli, plain);
  await pulumi(["config", "set", ...plain, "adplatform:baseUrl", "http://api.example.com"]);
  const refused = await pulumiIn(cli, ["preview", ...plain], { mayFail: true });
  expect(refused.code).not.toBe(0);
  expect(refused.stdout).toContain(
    "has a problem: adplatform:baseUrl: refusing to send the API token over plain http:// to api.example.com",
  );
  expect(refused.stdout + refused.stderr).not.toContain(TOKEN);
  await pulumi(["config", "set", ...plain, "adplatform:baseUrl", sim.url]);
  await pulumi(["config", "set", ...plain, "secondBaseUrl", sim.url]);
  await pulumi(["config", "set", ...plain, "--secret", "secondToken", SECOND_TOKEN]);
  await pulumi(["up", ...plain, "--yes", "--skip-preview"]);
  await expectTokenEncryptedInState(cli, plain);
  await pulumi(["stack", "rm", ...plain, "--yes", "--force"]);
  await pulumi(["stack", "select", "dev"]); // removing a stack leaves none selected
});

it("imports group 701, writing a declaration that compiles and previews with no changes", async () => {
  const out = path.join(dir, "imported.ts");
  await pulumi(["import", "adplatform:index:CampaignGroup", "summer", "701", "--yes", "--out", out]);
  const generated = fs.readFileSync(out, "utf8");
  expect(generated).toMatch(/new adplatform\.CampaignGroup\("summer", \{[^}]*name: "Summer sale"/s);
  // The declaration goes into the program, whose imports it repeats.
  const declaration = generated.replace(/^import .*\n/gm, "");
  fs.appendFileSync(path.join(dir, "index.ts"), `\n${declaration}`);
  execFileSync(process.execPath, [path.join(dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", dir], { stdio: "pipe" });
  await pulumi(["preview", "--expect-no-changes"]);
});

it("takes group 702 over with the import resource option, declared without items as an import writes it", async () => {
  const posts = () => sim.requests().operations["2"]?.calls.length ?? 0;
  const before = posts();
  fs.appendFileSync(
    path.join(dir, "index.ts"),
    `\nconst retargeting = new adplatform.CampaignGroup("retargeting", { name: "Retargeting", color: "#3366cc" }, { import: "702" });\nexport const retargetingSize = retargeting.size;\n`,
  );
  await pulumi(["up", "--yes", "--skip-preview"]);
  const outputs = JSON.parse(await pulumi(["stack", "output", "--json"]));
  expect(outputs.retargetingSize).toBe(1);
  expect(posts()).toBe(before);
  await pulumi(["preview", "--expect-no-changes"]);
});

it("replaces with --target-replace right after the create, never deleting the object the state keeps", async () => {
  const posts = () => sim.requests().operations["2"]?.calls.length ?? 0;
  fs.appendFileSync(
    path.join(dir, "index.ts"),
    `\nconst autumn = new adplatform.CampaignGroup("autumn", { name: "Autumn", color: "#aa6600", items: ["7"] });\nexport const autumnId = autumn.id;\n`,
  );
  await pulumi(["up", "--yes", "--skip-preview"]);
  const first = JSON.parse(await pulumi(["stack", "output", "--json"])).autumnId as string;
  const urn = JSON.parse(await pulumi(["stack", "export"])).deployment.resources.find((r: { id?: string }) => r.id === first).urn;
  const before = posts();
  // The engine checks a targeted replacement without old inputs, like the create after a kill, so
  // the journal's entry (a native program never acknowledges) is taken over; the old id's delete then
  // keeps it and says nothing was replaced.
  const taken = await pulumi(["up", "--yes", "--skip-preview", "--target-replace", urn]);
  expect(taken).toContain("nothing was replaced");
  expect(JSON.parse(await pulumi(["stack", "output", "--json"])).autumnId).toBe(first);
  expect(posts()).toBe(before);
  // Run again: the entry is gone, so the group is replaced by a new one.
  await pulumi(["up", "--yes", "--skip-preview", "--target-replace", urn]);
  const replaced = JSON.parse(await pulumi(["stack", "output", "--json"])).autumnId as string;
  expect(replaced).not.toBe(first);
  expect(posts()).toBe(before + 1);
  await pulumi(["preview", "--expect-no-changes"]);
});
