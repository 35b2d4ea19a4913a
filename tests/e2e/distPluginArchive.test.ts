/**
 * The plugin archive as a user installs it (README, "Install"): each case in a fresh directory
 * outside the repository with a fresh PULUMI_HOME, `pulumi plugin install resource adplatform
 * <version> -f <archive>` from dist/, nothing of this checkout on PATH, and a program that names no
 * plugin path, run with `pulumi up` against the simulator:
 * - YAML: the program of examples/yaml, with the YAML language host built from tools/pulumi-yaml;
 * - TypeScript: the native SDK's npm tarball from dist/ installed with npm (`@pulumi/pulumi` and
 *   `typescript` from the registry, or npm's cache), and a program importing it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { openCliSession, writeTypeScriptProgram, type CliSession } from "../../scripts/driver/cliSession";
import { pulumiBinDir } from "../../scripts/driver/paths";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { VERSION, distFile, freshDir, pluginArchiveName, userPath } from "./distArtifacts";
import { E2E_TIMEOUT_MS, EXAMPLES_DIR, TOKEN, initDemoStack, pulumiIn } from "./harness";

// The TypeScript case installs its dependencies with npm first.
jest.setTimeout(2 * E2E_TIMEOUT_MS);

let sim: RunningSimulator;
const dirs: string[] = [];
const sessions: CliSession[] = [];

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  for (const session of sessions) session.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  await sim?.close();
});

/** A fresh directory holding `files` of dist/ (by name), and a CLI session on it with a user's PATH. */
function releaseDir(prefix: string, files: readonly string[]): CliSession {
  const dir = freshDir(prefix);
  dirs.push(dir);
  for (const name of files) fs.copyFileSync(distFile(name), path.join(dir, name));
  // npm's cache holds the versions this repository's npm ci installed.
  const cli = openCliSession(dir, { secrets: [TOKEN], extraEnv: { PATH: userPath(), npm_config_prefer_offline: "true" } });
  sessions.push(cli);
  return cli;
}

/** `pulumi up`, the outputs and the simulator's objects checked, no changes on a second preview, then destroy. */
async function upAgainstSimulator(cli: CliSession): Promise<void> {
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
}

describe("YAML", () => {
  let cli: CliSession;

  beforeAll(() => {
    if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-yaml"))) {
      throw new Error("no pulumi-language-yaml next to the CLI: scripts/ensure-pulumi builds it from tools/pulumi-yaml (needs Go)");
    }
    cli = releaseDir("adplatform-dist-yaml-", [pluginArchiveName()]);
    fs.copyFileSync(path.join(EXAMPLES_DIR, "yaml", "Pulumi.yaml"), path.join(cli.dir, "Pulumi.yaml"));
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
    await upAgainstSimulator(cli);
  });
});

describe("TypeScript, the native SDK's npm tarball", () => {
  const sdkTarball = `pulumi-adplatform-native-${VERSION}.tgz`;
  let cli: CliSession;

  beforeAll(async () => {
    cli = releaseDir("adplatform-dist-ts-", [pluginArchiveName(), sdkTarball]);
    writeTypeScriptProgram(cli.dir, {
      name: "adplatform-dist-ts",
      description: "The native TypeScript SDK from its release tarball",
      index: `import * as adplatform from "pulumi-adplatform-native";

const strategy = new adplatform.BidStrategy("night-bids", { name: "Night bids", strategy: "percent_add", value: 12.5, maxValue: 3 });
const group = new adplatform.CampaignGroup("spring-sale", { name: "Spring sale", color: "#22aa44", items: ["5101", "5102"] });
const countries = adplatform.getCountriesOutput({});

export const strategyId = strategy.id;
export const groupId = group.id;
export const countryCount = countries.total;
`,
    });
    // README, "Install": the SDK's tarball, the @pulumi/pulumi it runs on, and TypeScript for the program.
    execFileSync(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `./${sdkTarball}`,
        "@pulumi/pulumi@3.248.0",
        "typescript@<7",
        "@types/node@20",
      ],
      { cwd: cli.dir, stdio: "pipe", env: { ...process.env, ...cli.env } },
    );
    await pulumiIn(cli, ["plugin", "install", "resource", "adplatform", VERSION, "-f", pluginArchiveName()]);
  });

  it("runs a program on the SDK with the installed plugin", async () => {
    expect(fs.readdirSync(path.join(cli.dir, "node_modules", ".bin")).filter((name) => name.startsWith("pulumi-resource-"))).toEqual([]);
    await upAgainstSimulator(cli);
  });
});
