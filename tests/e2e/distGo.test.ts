/**
 * The Go SDK as a user installs it (README, "Install", Go): in a fresh directory outside the repository,
 * the Go SDK archive from dist/ unpacked where examples/go's `replace` directive expects it, the plugin
 * installed from the plugin archive into an empty PULUMI_HOME, and the Go program of examples/go (an
 * Automation API inline program: no Go language host) built from the Go module cache alone
 * (GOPROXY=off; scripts/ensure-pulumi --go-example fills the cache), on the version matrix's Pulumi Go SDK
 * (scripts/matrix/combinations.json, pulumiGo), and run against the simulator on a local file backend,
 * with nothing of this checkout on PATH.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { CliSession } from "../../scripts/driver/cliSession";
import { currentCombination } from "../../scripts/matrix/combination";
import { GO_MODULE_PATH, GO_SDK_DIR } from "../../scripts/native/buildSchema";
import { VERSION, expectDemoOutcome, installPluginArchive, pluginArchiveName, useRelease } from "./distArtifacts";
import { E2E_TIMEOUT_MS, EXAMPLES_DIR, TOKEN } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

/** A build whose build cache was trimmed compiles Pulumi's Go SDK again: minutes on a loaded 2-core machine. */
const GO_BUILD_TIMEOUT_MS = 900_000;

const GO_SDK_ARCHIVE = `pulumi-adplatform-go-sdk-v${VERSION}.tar.gz`;

const release = useRelease();
let dir: string;
let cli: CliSession;

/** Runs the built program with `action`; its progress goes to the test's output, its outputs are returned. */
async function runProgram(action: "up" | "preview" | "destroy"): Promise<string> {
  try {
    const { stdout, stderr } = await promisify(execFile)(path.join(dir, "adplatform-go"), [action], {
      cwd: dir,
      env: { ...process.env, ...cli.env, ADPLATFORM_BASE_URL: release.sim.url, ADPLATFORM_TOKEN: TOKEN },
      maxBuffer: 16 * 1024 * 1024,
    });
    process.stdout.write(stderr);
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`adplatform-go ${action} failed:\n${stdout ?? ""}\n${stderr ?? ""}`, { cause: error });
  }
}

beforeAll(() => {
  cli = release.workspace("adplatform-dist-go-", { distFiles: [GO_SDK_ARCHIVE, pluginArchiveName()] });
  dir = cli.dir;
  execFileSync("tar", ["-xzf", GO_SDK_ARCHIVE], { cwd: dir });
  for (const name of ["main.go", "go.mod", "go.sum"]) fs.copyFileSync(path.join(EXAMPLES_DIR, "go", name), path.join(dir, name));
});

it("the archive holds the SDK's module at its path, naming the plugin's version and download URL", () => {
  const goMod = fs.readFileSync(path.join(dir, GO_SDK_DIR, "go.mod"), "utf8");
  expect(goMod).toMatch(new RegExp(`^module ${GO_MODULE_PATH}$`, "m"));
  expect(JSON.parse(fs.readFileSync(path.join(dir, GO_SDK_DIR, "pulumi-plugin.json"), "utf8"))).toEqual({
    resource: true,
    name: "adplatform",
    version: VERSION,
    server: expect.any(String),
  });
  // examples/go shows the require line a user writes, at this release's version.
  expect(fs.readFileSync(path.join(dir, "go.mod"), "utf8")).toContain(`${GO_MODULE_PATH} v${VERSION}\n`);
});

it(
  "builds the Go program from the module cache alone, on the combination's Pulumi Go SDK",
  async () => {
    const started = Date.now();
    const offline = { ...process.env, GOWORK: "off", GOPROXY: "off" };
    const goFlags = (mod: string) => `${process.env.GOFLAGS ?? ""} -mod=${mod}`.trim();
    // examples/go pins the oldest combination's SDK; on another a user's `go get` and `go mod tidy` move it.
    const { pulumiGo } = currentCombination();
    const go = (args: string[], mod: string) => promisify(execFile)("go", args, { cwd: dir, env: { ...offline, GOFLAGS: goFlags(mod) } });
    const sdkVersion = async () => (await go(["list", "-m", "github.com/pulumi/pulumi/sdk/v3"], "readonly")).stdout.trim();
    let listed: string;
    try {
      listed = await sdkVersion();
      if (listed !== `github.com/pulumi/pulumi/sdk/v3 ${pulumiGo}`) {
        await go(["get", `github.com/pulumi/pulumi/sdk/v3@${pulumiGo}`], "mod");
        await go(["mod", "tidy"], "mod");
        listed = await sdkVersion();
      }
      await promisify(execFile)("go", ["build", "-trimpath", "-o", "adplatform-go", "."], {
        cwd: dir,
        env: { ...offline, GOFLAGS: goFlags("readonly") },
      });
    } catch (error) {
      const { code, stderr } = error as { code?: string; stderr?: string };
      if (code === "ENOENT")
        throw new Error("go is not on PATH: the Go SDK's test builds a Go program (https://go.dev/dl/)", { cause: error });
      throw new Error(`go build failed (scripts/ensure-pulumi --go-example fills the Go module cache it builds from):\n${stderr ?? ""}`, {
        cause: error,
      });
    }
    expect(listed).toBe(`github.com/pulumi/pulumi/sdk/v3 ${pulumiGo}`);
    process.stdout.write(`go build of the program: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  },
  GO_BUILD_TIMEOUT_MS,
);

it("creates a group and a strategy and reads the countries, with the plugin installed from the archive", async () => {
  await installPluginArchive(cli);
  expectDemoOutcome(JSON.parse(await runProgram("up")), release.sim);

  // The program's stack settles: a second run would change nothing (preview --expect-no-changes).
  await runProgram("preview");
  await runProgram("destroy");
});
