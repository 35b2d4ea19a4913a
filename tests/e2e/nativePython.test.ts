/**
 * The native face through the real CLI with a Python program: the Python language host
 * (scripts/ensure-pulumi), a virtualenv with `pulumi` from PyPI and the generated SDK
 * (scripts/native/ensure-python-venv), and the plugin `pulumi-resource-adplatform` found on PATH.
 * The program creates a strategy and a group and reads a zone; then `pulumi import` of group 701
 * writes its Python declaration, which is added to the program and previews with no changes.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { CliSession } from "../../scripts/driver/cliSession";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { E2E_TIMEOUT_MS, initDemoStack, openNativePythonProgram, pulumiIn } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const PROGRAM = `import pulumi
import pulumi_adplatform as adplatform

strategy = adplatform.BidStrategy("night-bids", name="Night bids", strategy="percent_add", value=12.5, max_value=3)
group = adplatform.CampaignGroup("spring-sale", name="Spring sale", color="#22aa44", items=["5101", "5102"])
zone = adplatform.get_zone_output(id="1001")

pulumi.export("strategyId", strategy.id)
pulumi.export("groupId", group.id)
pulumi.export("zoneName", zone.name)
`;

let sim: RunningSimulator;
let dir: string;
let venv: string;
let cli: CliSession;

/** The output of `pulumi <args>`; a non-zero exit fails the test. */
const pulumi = async (args: string[]): Promise<string> => (await pulumiIn(cli, args)).stdout;

beforeAll(async () => {
  sim = await startSimulator();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-native-py-"));
  ({ cli, venv } = openNativePythonProgram(dir, {
    name: "adplatform-native-py",
    description: "The native face from Python",
    main: PROGRAM,
  }));
  await initDemoStack(cli, sim.url);
});

afterAll(async () => {
  cli?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await sim?.close();
});

it("creates a strategy and a group and reads a zone", async () => {
  await pulumi(["up", "--yes", "--skip-preview"]);
  const outputs = JSON.parse(await pulumi(["stack", "output", "--json", "--show-secrets"]));
  expect(outputs).toMatchObject({
    strategyId: expect.stringMatching(/^\d+$/),
    groupId: expect.stringMatching(/^\d+$/),
    zoneName: expect.any(String),
  });
  const state = sim.state();
  expect(state.bidStrategies?.some((s) => s.id === outputs.strategyId && s.name === "Night bids")).toBe(true);
  expect(state.campaignGroups?.some((g) => g.id === outputs.groupId)).toBe(true);
  await pulumi(["preview", "--expect-no-changes"]);
});

it("imports group 701, writing a Python declaration that previews with no changes", async () => {
  const out = path.join(dir, "imported.py");
  await pulumi(["import", "adplatform:index:CampaignGroup", "summer", "701", "--yes", "--out", out]);
  const generated = fs.readFileSync(out, "utf8");
  expect(generated).toMatch(/adplatform\.CampaignGroup\("summer",[^)]*name="Summer sale"/s);
  const declaration = generated.replace(/^import .*\n/gm, "");
  fs.appendFileSync(path.join(dir, "__main__.py"), `\n${declaration}`);
  execFileSync(path.join(venv, "bin", "python"), ["-m", "py_compile", path.join(dir, "__main__.py")]);
  await pulumi(["preview", "--expect-no-changes"]);
});
