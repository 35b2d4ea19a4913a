/**
 * Automatic plugin acquisition from a release: dist/ served by a loopback HTTP server stands in for
 * the GitHub release the schema's `pluginDownloadURL` names (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES
 * points that URL at it). In a fresh directory outside the repository, with an empty PULUMI_HOME and
 * automatic acquisition on, a Python program whose only install is the wheel from dist/ runs
 * `pulumi up`, `preview` and `destroy` against the simulator: the engine reads `version` and `server`
 * from the wheel's pulumi-plugin.json and downloads and installs the plugin archive by itself. PATH holds
 * `pulumi`, the Python language host and `python3` only: no Node.js, which the plugin carries.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CliSession } from "../../scripts/driver/cliSession";
import { pulumiBinDir } from "../../scripts/driver/paths";
import { DEFAULT_PLUGIN_DOWNLOAD_URL } from "../../scripts/native/buildSchema";
import {
  DEMO_PYTHON_PROGRAM,
  VERSION,
  distFile,
  pluginArchiveName,
  serveRelease,
  upDemoProgram,
  useRelease,
  type ServedRelease,
} from "./distArtifacts";
import { E2E_TIMEOUT_MS, initDemoStack } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const WHEEL = `pulumi_adplatform-${VERSION}-py3-none-any.whl`;

const release = useRelease();
let served: ServedRelease;
let dir: string;
let cli: CliSession;

beforeAll(async () => {
  if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-python"))) {
    throw new Error("no pulumi-language-python next to the CLI: scripts/ensure-pulumi --python builds it from its source");
  }
  const wheel = distFile(WHEEL);
  distFile(pluginArchiveName());
  served = await serveRelease();
  cli = release.workspace("adplatform-dist-download-", {
    onlyCommands: ["pulumi", "pulumi-language-python", "pulumi-language-python-exec", "python3"],
    extraEnv: {
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      ...served.env,
    },
  });
  dir = cli.dir;

  // The program's virtualenv: the wheel, with `pulumi` held at the CLI's version.
  const cliVersion = execFileSync(path.join(pulumiBinDir(), "pulumi"), ["version"], { encoding: "utf8" }).trim().replace(/^v/, "");
  const venv = path.join(dir, "venv");
  execFileSync(process.env.PYTHON ?? "python3", ["-m", "venv", venv], { stdio: "inherit" });
  fs.copyFileSync(wheel, path.join(dir, WHEEL));
  execFileSync(
    path.join(venv, "bin", "python"),
    ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `./${WHEEL}`, `pulumi==${cliVersion}`],
    {
      cwd: dir,
      stdio: "inherit",
    },
  );
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: adplatform-dist-download\ndescription: The wheel alone\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n`,
  );
  fs.writeFileSync(path.join(dir, "__main__.py"), DEMO_PYTHON_PROGRAM);

  await initDemoStack(cli, release.sim.url);
});

afterAll(async () => {
  await served?.close();
});

it("the wheel names the plugin's version and download URL", () => {
  const listing = execFileSync(
    path.join(dir, "venv", "bin", "python"),
    ["-c", "import importlib.resources as r; print(r.files('pulumi_adplatform').joinpath('pulumi-plugin.json').read_text())"],
    {
      encoding: "utf8",
    },
  );
  expect(JSON.parse(listing)).toEqual({ resource: true, name: "adplatform", version: VERSION, server: DEFAULT_PLUGIN_DOWNLOAD_URL });
});

it("pulumi up downloads the plugin from the release and runs the program with no Node.js on PATH, then preview and destroy", async () => {
  expect(fs.existsSync(path.join(cli.env.PULUMI_HOME!, "plugins", `resource-adplatform-v${VERSION}`))).toBe(false);
  await upDemoProgram(cli, release.sim, async () => {
    expect(served.served).toContain(pluginArchiveName());
    expect(fs.readdirSync(path.join(cli.env.PULUMI_HOME!, "plugins", `resource-adplatform-v${VERSION}`)).sort()).toEqual([
      "README.md",
      "pulumi-resource-adplatform",
    ]);
  });
});
