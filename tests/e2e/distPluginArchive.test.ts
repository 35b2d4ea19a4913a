/**
 * The plugin archive as a user installs it (README, "Install", YAML): in a fresh directory outside
 * the repository with a fresh PULUMI_HOME, `pulumi plugin install resource adplatform <version> -f
 * <archive>` from dist/, then the YAML program of examples/yaml (no `plugins.providers.path`) runs
 * `pulumi up` against the simulator with the YAML language host built from tools/pulumi-yaml, and
 * nothing of this checkout on PATH.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { openCliSession, type CliSession } from "../../scripts/driver/cliSession";
import { pulumiBinDir } from "../../scripts/driver/paths";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { VERSION, distFile, freshDir, pluginArchiveName, userPath } from "./distArtifacts";
import { E2E_TIMEOUT_MS, EXAMPLES_DIR, TOKEN, initDemoStack, pulumiIn } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

let sim: RunningSimulator;
let dir: string;
let cli: CliSession;

beforeAll(async () => {
  if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-yaml"))) {
    throw new Error("no pulumi-language-yaml next to the CLI: scripts/ensure-pulumi builds it from tools/pulumi-yaml (needs Go)");
  }
  sim = await startSimulator();
  dir = freshDir("adplatform-dist-yaml-");
  fs.copyFileSync(path.join(EXAMPLES_DIR, "yaml", "Pulumi.yaml"), path.join(dir, "Pulumi.yaml"));
  fs.copyFileSync(distFile(pluginArchiveName()), path.join(dir, pluginArchiveName()));
  cli = openCliSession(dir, { secrets: [TOKEN], extraEnv: { PATH: userPath() } });
});

afterAll(async () => {
  cli?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await sim?.close();
});

it("installs from the archive into an empty PULUMI_HOME", async () => {
  await pulumiIn(cli, ["plugin", "install", "resource", "adplatform", VERSION, "-f", pluginArchiveName()]);
  const installed = path.join(cli.env.PULUMI_HOME!, "plugins", `resource-adplatform-v${VERSION}`);
  expect(fs.readdirSync(installed).sort()).toEqual(["README.md", "lib", "pulumi-resource-adplatform"]);
  expect(JSON.parse((await pulumiIn(cli, ["plugin", "ls", "--json"])).stdout)).toEqual([
    expect.objectContaining({ name: "adplatform", kind: "resource", version: VERSION }),
  ]);
});

it("runs the YAML example with the installed plugin", async () => {
  await initDemoStack(cli, sim.url);
  await pulumiIn(cli, ["up", "--yes", "--skip-preview"]);
  const outputs = JSON.parse((await pulumiIn(cli, ["stack", "output", "--json"])).stdout);
  expect(outputs).toEqual({
    strategyId: expect.stringMatching(/^\d+$/),
    groupId: expect.stringMatching(/^\d+$/),
    countryCount: expect.any(Number),
  });
  const state = sim.state();
  expect(state.bidStrategies?.some((s) => s.id === outputs.strategyId && s.name === "Night bids")).toBe(true);
  expect(state.campaignGroups?.some((g) => g.id === outputs.groupId && g.name === "Spring sale")).toBe(true);
  await pulumiIn(cli, ["preview", "--expect-no-changes"]);
  await pulumiIn(cli, ["destroy", "--yes", "--skip-preview"]);
});
