/**
 * The project templates (templates/typescript, templates/python, templates/yaml) as a new user meets them: the
 * package from `npm pack` installed into an empty directory outside the repository, then
 * `pulumi new` from the template the package ships, with the template's config defaults (the
 * simulator's demo token) and only the base URL given, then `pulumi up` against the simulator and a
 * one-field change that `pulumi preview --diff` shows. The Python case needs the Python language
 * host (scripts/ensure-pulumi) and `pip` (`pulumi` from PyPI, the SDK from the package). The YAML
 * case needs the YAML language host (scripts/ensure-pulumi) and the plugin archive of dist/ (`npm run
 * dist`), installed with `pulumi plugin install` into the project's empty PULUMI_HOME, with nothing
 * of this checkout on PATH: the program names no plugin path. dist/ is served over loopback as the
 * release the Python SDK names, since the newest CLI's `pulumi new` fetches the plugin from there.
 * Each project runs the version matrix's SDKs (scripts/matrix/run): the template's pins on the oldest
 * combination, the newest releases installed over them on the newest.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiBinDir } from "../../scripts/driver/paths";
import { openCliSession, requireLanguageHost, type CliSession } from "../../scripts/driver/cliSession";
import { currentCombination } from "../../scripts/matrix/combination";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { VERSION, distFile, pluginArchiveName, serveRelease, userPath, type ServedRelease } from "./distArtifacts";
import { E2E_TIMEOUT_MS, REPO_ROOT, TOKEN, pulumiIn } from "./harness";

// `pulumi new` of the Python template creates a virtualenv and installs `pulumi` into it.
jest.setTimeout(2 * E2E_TIMEOUT_MS);

let sim: RunningSimulator;
let release: ServedRelease;
let workDir: string;
let tarball: string;
const sessions: CliSession[] = [];

beforeAll(() => {
  requireLanguageHost();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-templates-"));
  // The build is there (npm run test:e2e builds first); pack without its prepare build.
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", workDir], { cwd: REPO_ROOT, encoding: "utf8" }),
  ) as { filename: string }[];
  tarball = path.join(workDir, packed[0]!.filename);
}, E2E_TIMEOUT_MS);

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  release = await serveRelease();
});

afterAll(async () => {
  for (const session of sessions) session.close();
  await sim?.close();
  await release?.close();
  if (workDir !== undefined) fs.rmSync(workDir, { recursive: true, force: true });
});

/**
 * An empty directory with the package installed from the tarball (which brings the templates),
 * then `pulumi new` from `template` into it. Returns the session on stack `dev`.
 */
async function newProject(template: "typescript" | "python" | "yaml"): Promise<CliSession> {
  const dir = path.join(workDir, template);
  fs.mkdirSync(dir);
  // From npm's cache when it holds these versions (this repository's npm ci put them there).
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: dir, stdio: "pipe" });
  // The YAML program finds the plugin in PULUMI_HOME only: not on PATH, where npm run puts this checkout's.
  // The Python SDK names the plugin's release, which dist/ stands in for (release.env).
  const cli = openCliSession(dir, {
    extraEnv: { npm_config_prefer_offline: "true", ...(template === "yaml" ? { PATH: userPath() } : {}), ...release.env },
  });
  sessions.push(cli);
  if (template === "yaml")
    await pulumiIn(cli, ["plugin", "install", "resource", "adplatform", VERSION, "-f", distFile(pluginArchiveName())]);
  const templateDir = path.join("node_modules", "pulumi-adplatform", "templates", template);
  // --force: the directory already holds node_modules and package.json. The token is the template's default.
  await pulumiIn(cli, ["new", templateDir, "--force", "--yes", "--stack", "dev", "--config", `adplatform:baseUrl=${sim.url}`]);
  if (template === "python" && currentCombination().name === "newest") {
    // Pulumi CLIs after 3.250 end `pulumi new` by installing the plugins the program's SDKs name, from
    // the plugin cache or their release, whatever the project's `plugins.providers` says; 3.250 did not.
    expect(release.served).toContain(pluginArchiveName());
  }
  const settings = fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8");
  expect(settings).toMatch(/adplatform:token:\s+secure:/);
  expect(settings).not.toContain(TOKEN);
  useCombinationSdk(template, dir);
  return cli;
}

/**
 * The templates pin the oldest combination's SDKs (@pulumi/pulumi 3.248.0 installs on Node.js 20,
 * later releases declare Node.js 22). On the newest combination the project then moves to that
 * combination's SDK as the README tells a user on Node.js 22 or later: `npm install
 * @pulumi/pulumi@<version>`, or `pip install pulumi==<version>` in the project's virtualenv.
 */
function useCombinationSdk(template: "typescript" | "python" | "yaml", dir: string): void {
  const combination = currentCombination();
  if (template === "typescript") {
    if (combination.name === "newest") {
      const spec = `@pulumi/pulumi@${combination.pulumiNodejs}`;
      execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", spec], {
        cwd: dir,
        stdio: "pipe",
      });
    }
    const sdk = JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as {
      version: string;
    };
    expect(sdk.version).toBe(combination.pulumiNodejs);
  } else if (template === "python") {
    const python = path.join(dir, "venv", "bin", "python");
    if (combination.name === "newest") {
      const spec = `pulumi==${combination.pulumiPython}`;
      execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", spec], { cwd: dir, stdio: "pipe" });
    }
    const version = execFileSync(python, ["-c", "import importlib.metadata as m; print(m.version('pulumi'))"], { encoding: "utf8" });
    expect(version.trim()).toBe(combination.pulumiPython);
  }
}

/** `pulumi up`, then the modifier's value changed in `file` and previewed: exactly that field shows. */
async function upThenPreviewOneChange(cli: CliSession, file: string): Promise<void> {
  const up = await pulumiIn(cli, ["up", "--yes", "--skip-preview"]);
  expect(up.stdout).toMatch(/\+ 4 created/);
  const outputs = JSON.parse((await pulumiIn(cli, ["stack", "output", "--json"])).stdout) as Record<string, string>;
  expect(outputs).toMatchObject({ zoneName: expect.any(String), modifierId: "501" });
  expect(sim.state().bidStrategies!.some((s) => String(s.id) === outputs.strategyId)).toBe(true);
  expect(sim.state().bidModifiers!.find((m) => m.id === "501")).toMatchObject({ value: "1.40" });

  const program = path.join(cli.dir, file);
  const text = fs.readFileSync(program, "utf8");
  expect(text.match(/"1\.40"/g)).toHaveLength(1);
  fs.writeFileSync(program, text.replace('"1.40"', '"1.50"'));
  const preview = await pulumiIn(cli, ["preview", "--diff"]);
  expect(preview.stdout).toMatch(/value\s*:\s*"1\.40" => "1\.50"/);
  expect(preview.stdout).toMatch(/~ 1 to update/);
}

test("templates/typescript: pulumi new, up against the simulator, a one-field change previewed", async () => {
  const cli = await newProject("typescript");
  await upThenPreviewOneChange(cli, "index.ts");
});

test("templates/python: pulumi new, up against the simulator, a one-field change previewed", async () => {
  if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-python"))) {
    throw new Error("no pulumi-language-python next to the CLI: scripts/ensure-pulumi --python builds it from its source");
  }
  const cli = await newProject("python");
  await upThenPreviewOneChange(cli, "__main__.py");
});

test("templates/yaml: pulumi new, up against the simulator with the plugin pulumi plugin install put in PULUMI_HOME, a one-field change previewed", async () => {
  if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-yaml"))) {
    throw new Error("no pulumi-language-yaml next to the CLI: scripts/ensure-pulumi --yaml builds it (needs Go)");
  }
  const cli = await newProject("yaml");
  expect(fs.readFileSync(path.join(cli.dir, "Pulumi.yaml"), "utf8")).not.toMatch(/^plugins:/m);
  await upThenPreviewOneChange(cli, "Pulumi.yaml");
  expect(JSON.parse((await pulumiIn(cli, ["plugin", "ls", "--json"])).stdout)).toEqual([
    expect.objectContaining({ name: "adplatform", kind: "resource", version: VERSION }),
  ]);
});
