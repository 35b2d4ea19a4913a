/**
 * The plugin archive as a user installs it (README, "Install"): each case in a fresh directory
 * outside the repository with a fresh PULUMI_HOME, `pulumi plugin install resource adplatform
 * <version> -f <archive>` from dist/, nothing of this checkout on PATH, and a program that names no
 * plugin path, run with `pulumi up` against the simulator:
 * - YAML: the program of examples/yaml, with the YAML language host built from tools/pulumi-yaml, and a
 *   PATH that holds `pulumi` and that host only: no Node.js, which the plugin (one executable) carries;
 * - TypeScript: the native SDK's npm tarball from dist/ installed with npm (`@pulumi/pulumi` and
 *   `typescript` from the registry, or npm's cache), and a program importing it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { writeTypeScriptProgram, type CliSession } from "../../scripts/driver/cliSession";
import { pulumiBinDir } from "../../scripts/driver/paths";
import { executableFormat, seaBlob } from "../../scripts/dist/executableFormat";
import { VERSION, installPluginArchive, pluginArchiveName, upDemoProgram, useRelease } from "./distArtifacts";
import { E2E_TIMEOUT_MS, EXAMPLES_DIR, expectTokenEncryptedInState, initDemoStack, pulumiIn, setTokenInClear } from "./harness";

// The TypeScript case installs its dependencies with npm first.
jest.setTimeout(2 * E2E_TIMEOUT_MS);

const release = useRelease();

describe("YAML", () => {
  let cli: CliSession;

  beforeAll(() => {
    if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-yaml"))) {
      throw new Error("no pulumi-language-yaml next to the CLI: scripts/ensure-pulumi --yaml builds it from tools/pulumi-yaml (needs Go)");
    }
    cli = release.workspace("adplatform-dist-yaml-", {
      distFiles: [pluginArchiveName()],
      onlyCommands: ["pulumi", "pulumi-language-yaml"],
    });
    fs.copyFileSync(path.join(EXAMPLES_DIR, "yaml", "Pulumi.yaml"), path.join(cli.dir, "Pulumi.yaml"));
  });

  it("installs from the archive into an empty PULUMI_HOME: one executable, Node.js and the provider inside", async () => {
    await installPluginArchive(cli);
    const installed = path.join(cli.env.PULUMI_HOME!, "plugins", `resource-adplatform-v${VERSION}`);
    expect(fs.readdirSync(installed).sort()).toEqual(["README.md", "pulumi-resource-adplatform"]);
    const executable = fs.readFileSync(path.join(installed, "pulumi-resource-adplatform"));
    expect(executableFormat(executable)).toEqual({ format: "elf", arch: process.arch });
    expect(seaBlob(executable)).toBeDefined();
    expect(JSON.parse((await pulumiIn(cli, ["plugin", "ls", "--json"])).stdout)).toEqual([
      expect.objectContaining({ name: "adplatform", kind: "resource", version: VERSION }),
    ]);
  });

  it("runs the YAML example with no Node.js on PATH: up, preview, destroy; a token set in clear stays encrypted in the state", async () => {
    await initDemoStack(cli, release.sim.url);
    await setTokenInClear(cli);
    await upDemoProgram(cli, release.sim, () => expectTokenEncryptedInState(cli));
  });
});

describe("TypeScript, the native SDK's npm tarball", () => {
  const sdkTarball = `pulumi-adplatform-native-${VERSION}.tgz`;
  let cli: CliSession;

  beforeAll(async () => {
    cli = release.workspace("adplatform-dist-ts-", { distFiles: [pluginArchiveName(), sdkTarball] });
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
    await installPluginArchive(cli);
  });

  it("runs a program on the SDK with the installed plugin", async () => {
    expect(fs.readdirSync(path.join(cli.dir, "node_modules", ".bin")).filter((name) => name.startsWith("pulumi-resource-"))).toEqual([]);
    await initDemoStack(cli, release.sim.url);
    await upDemoProgram(cli, release.sim);
  });
});
