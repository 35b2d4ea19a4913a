/**
 * The source-based package (README, "Install", from a checkout): a `git clone` of this repository
 * (its committed HEAD) into a fresh directory outside it, then, in an empty Python project with a
 * fresh PULUMI_HOME and nothing of this checkout on PATH, `pulumi package add <clone>`. Pulumi finds
 * PulumiPlugin.yaml at the clone's root, has the Node.js language host install the clone's
 * dependencies (`npm install`, whose `prepare` builds it), runs the plugin from the clone for its
 * schema, and generates and installs a local Python SDK; the program using that SDK then previews
 * and runs `pulumi up` against the simulator with the plugin started from the clone.
 * Needs the Python language host, `git`, and `pip` (pulumi from PyPI into the project's virtualenv).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { openCliSession, requireLanguageHost, type CliSession } from "../../scripts/driver/cliSession";
import { pulumiBinDir } from "../../scripts/driver/paths";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { freshDir, userPath } from "./distArtifacts";
import { E2E_TIMEOUT_MS, REPO_ROOT, TOKEN, initDemoStack, pulumiIn } from "./harness";

// `package add` installs the clone's dependencies, builds it, and creates the program's virtualenv.
jest.setTimeout(3 * E2E_TIMEOUT_MS);

const PROGRAM = `import pulumi
import pulumi_adplatform as adplatform

strategy = adplatform.BidStrategy("night-bids", name="Night bids", strategy="percent_add", value=12.5, max_value=3)
group = adplatform.CampaignGroup("spring-sale", name="Spring sale", color="#22aa44", items=["5101", "5102"])
countries = adplatform.get_countries_output()

pulumi.export("strategyId", strategy.id)
pulumi.export("groupId", group.id)
pulumi.export("countryCount", countries.total)
`;

let sim: RunningSimulator;
let workDir: string;
let source: string;
let cli: CliSession;

beforeAll(async () => {
  requireLanguageHost();
  if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-python"))) {
    throw new Error("no pulumi-language-python next to the CLI: scripts/ensure-pulumi builds it from its source beside the repository");
  }
  sim = await startSimulator({ port: 0 });
  workDir = freshDir("adplatform-package-add-");
  source = path.join(workDir, "pulumi-adplatform");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", REPO_ROOT, source], { stdio: "pipe" });
  const program = path.join(workDir, "program");
  fs.mkdirSync(program);
  fs.writeFileSync(
    path.join(program, "Pulumi.yaml"),
    "name: adplatform-package-add\ndescription: The provider from a clone of its repository\n" +
      "runtime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n",
  );
  fs.writeFileSync(path.join(program, "requirements.txt"), "pulumi==3.250.0\n");
  fs.writeFileSync(path.join(program, "__main__.py"), PROGRAM);
  // From npm's cache when it holds the clone's locked versions (this repository's npm ci put them there).
  cli = openCliSession(program, { secrets: [TOKEN], extraEnv: { PATH: userPath(), npm_config_prefer_offline: "true" } });
});

afterAll(async () => {
  cli?.close();
  if (workDir !== undefined) fs.rmSync(workDir, { recursive: true, force: true });
  await sim?.close();
});

it("pulumi package add <clone> generates a local Python SDK and records the package's path", async () => {
  await pulumiIn(cli, ["package", "add", source]);
  expect(fs.readFileSync(path.join(cli.dir, "Pulumi.yaml"), "utf8")).toMatch(new RegExp(`packages:\\s+adplatform: ${source}\\n`));
  const pluginJson = path.join(cli.dir, "sdks", "adplatform", "pulumi_adplatform", "pulumi-plugin.json");
  expect(JSON.parse(fs.readFileSync(pluginJson, "utf8"))).toMatchObject({ resource: true, name: "adplatform" });
  expect(fs.readFileSync(path.join(cli.dir, "requirements.txt"), "utf8")).toMatch(/^sdks\/adplatform$/m);
  // The language host's `npm install` built the clone (`prepare`); the plugin runs from there, so
  // nothing was installed into PULUMI_HOME.
  expect(fs.existsSync(path.join(source, "bin", "provider", "faces", "native", "main.js"))).toBe(true);
  expect(fs.existsSync(path.join(cli.env.PULUMI_HOME!, "plugins"))).toBe(false);
});

it("runs the program on the local SDK against the simulator, the plugin started from the clone", async () => {
  await initDemoStack(cli, sim.url);
  const preview = await pulumiIn(cli, ["preview"]);
  expect(preview.stdout).toMatch(/\+ 3 to create/);
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
  expect(fs.existsSync(path.join(cli.env.PULUMI_HOME!, "plugins"))).toBe(false);
});
