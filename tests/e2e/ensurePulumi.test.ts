/**
 * scripts/ensure-pulumi gives what its caller asks for and no more: the CLI and the Node.js language host
 * always (all `npm run demo` runs), the Python and YAML language hosts only with --python and --yaml.
 * Run into an empty bin directory with the CLI of the end-to-end tests on PATH (the script's "pulumi on
 * PATH" mode, which links what it finds instead of building it) and no source to build a host from.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, pulumiBinDir } from "../../scripts/driver/paths";

let dir: string;

/** The bin directory's entries after `scripts/ensure-pulumi <args>` into a fresh one; checks the last stdout line names it. */
function ensurePulumi(args: readonly string[]): string[] {
  const bin = fs.mkdtempSync(path.join(dir, "bin-"));
  const stdout = execFileSync("bash", [path.join(REPO_ROOT, "scripts", "ensure-pulumi"), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_CLI_BIN_DIR: bin,
      LANGHOST_SRC: path.join(dir, "no-source"),
      PYHOST_SRC: path.join(dir, "no-source"),
    },
  });
  expect(stdout.trim().split("\n").pop()).toBe(fs.realpathSync(bin));
  return fs.readdirSync(bin).filter((name) => !name.startsWith("."));
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-ensure-pulumi-"));
  for (const host of ["pulumi", "pulumi-language-nodejs", "pulumi-language-python", "pulumi-language-yaml"]) {
    if (!fs.existsSync(path.join(pulumiBinDir(), host)))
      throw new Error(`no ${host} in ${pulumiBinDir()}: npm run test:e2e builds it first`);
  }
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it("without flags, gives the CLI, the Node.js language host and the dynamic-provider launcher only", () => {
  expect(ensurePulumi([]).sort()).toEqual(["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]);
});

it("with --python and --yaml, adds the Python and YAML language hosts", () => {
  expect(ensurePulumi(["--python", "--yaml"]).sort()).toEqual([
    "pulumi",
    "pulumi-language-nodejs",
    "pulumi-language-python",
    "pulumi-language-python-exec",
    "pulumi-language-yaml",
    "pulumi-resource-pulumi-nodejs",
  ]);
});
