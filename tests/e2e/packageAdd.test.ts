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
import { requireLanguageHost, type CliSession } from "../../scripts/driver/cliSession";
import { pulumiBinDir } from "../../scripts/driver/paths";
import { DEMO_PYTHON_PROGRAM, upDemoProgram, useRelease } from "./distArtifacts";
import { E2E_TIMEOUT_MS, REPO_ROOT, initDemoStack, pulumiIn } from "./harness";

// `package add` installs the clone's dependencies, builds it, and creates the program's virtualenv.
jest.setTimeout(3 * E2E_TIMEOUT_MS);

const release = useRelease();
let source: string;
let cli: CliSession;

beforeAll(() => {
  requireLanguageHost();
  if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-python"))) {
    throw new Error("no pulumi-language-python next to the CLI: scripts/ensure-pulumi --python builds it from its source");
  }
  cli = release.workspace("adplatform-package-add-", { programDir: "program" });
  source = path.join(path.dirname(cli.dir), "pulumi-adplatform");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", REPO_ROOT, source], { stdio: "pipe" });
  fs.writeFileSync(
    path.join(cli.dir, "Pulumi.yaml"),
    "name: adplatform-package-add\ndescription: The provider from a clone of its repository\n" +
      "runtime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n",
  );
  fs.writeFileSync(path.join(cli.dir, "requirements.txt"), "pulumi==3.250.0\n");
  fs.writeFileSync(path.join(cli.dir, "__main__.py"), DEMO_PYTHON_PROGRAM);
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
  await initDemoStack(cli, release.sim.url);
  const preview = await pulumiIn(cli, ["preview"]);
  expect(preview.stdout).toMatch(/\+ 3 to create/);
  await upDemoProgram(cli, release.sim);
  expect(fs.existsSync(path.join(cli.env.PULUMI_HOME!, "plugins"))).toBe(false);
});
