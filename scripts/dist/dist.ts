/**
 * `npm run dist`: everything a release publishes, into dist/, at the one version of package.json:
 *
 * - `pulumi-resource-adplatform-v<version>-<os>-<arch>.tar.gz` for linux and darwin (amd64, arm64) and
 *   windows-amd64: the native provider bundled with its dependencies into one file (esbuild), and its
 *   README. For linux-amd64, linux-arm64, darwin-amd64 and windows-amd64 the archive's
 *   `pulumi-resource-adplatform` (`.exe` on Windows) is one executable, Node.js with the bundle inside
 *   (singleExecutable.ts); darwin-arm64, for which npm publishes no Node.js recent enough, gets the bundle
 *   and a launcher that runs it with the Node.js on PATH (launchers.ts). What `pulumi plugin install`
 *   and the engine's automatic download unpack.
 * - `schema.json`: the package schema, with the release's `pluginDownloadURL`.
 * - `pulumi_adplatform-<version>-py3-none-any.whl` and `.tar.gz`: the Python SDK.
 * - `pulumi-adplatform-native-<version>.tgz`: the native TypeScript SDK (npm).
 * - `pulumi-adplatform-go-sdk-v<version>.tar.gz`: the Go SDK's module tree at its path in the repository.
 * - `SHA256SUMS`: the checksums of the above.
 *
 * The SDKs are generated from the release's schema (not copied from sdks/), so that their
 * `pulumi-plugin.json` names the download URL the release is published at:
 * `ADPLATFORM_PLUGIN_DOWNLOAD_URL` overrides the schema's default (scripts/native/buildSchema.ts).
 * Needs the Pulumi CLI with its Node.js and Python language hosts (scripts/ensure-pulumi --python), GNU tar
 * and Python 3 with venv (the Python build tool is installed into .pulumi-cli/python-build), Go
 * (tools/gen-go-sdk), and the npm registry or npm's cache for the pinned Node.js binaries (kept in
 * build/node-runtimes/ once fetched); it runs on linux-amd64 or another single-executable target.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { build, type Plugin } from "esbuild";
import { PLUGIN_EXECUTABLE, minimumNode, shLauncher, startScript } from "./launchers";
import { NODE_RUNTIMES, NODE_RUNTIME_VERSION, type SingleExecutableTarget } from "./nodeRuntimes";
import { hostTarget, nodeRuntime, prepareBlob, startsAsPlugin, writeSingleExecutable } from "./singleExecutable";
import { DEFAULT_PLUGIN_DOWNLOAD_URL, GO_SDK_DIR } from "../native/buildSchema";
import { SCHEMA_FILE } from "../native/schemaFile";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const DIST = path.join(REPO_ROOT, "dist");
// Inside the repository: the generated TypeScript SDK compiles against this repository's node_modules.
const WORK = path.join(REPO_ROOT, "build", "dist-work");
const PYTHON_BUILD_VENV = path.join(REPO_ROOT, ".pulumi-cli", "python-build");
// The npm tarballs of the pinned Node.js binaries, kept across runs (build/ is git-ignored).
const NODE_RUNTIME_CACHE = path.join(REPO_ROOT, "build", "node-runtimes");

/** The platforms the engine downloads for (its `<os>-<arch>` names) built as single executables. */
const SINGLE_EXECUTABLE_TARGETS = Object.keys(NODE_RUNTIMES) as SingleExecutableTarget[];
/** The one built with the launcher: npm has no Node.js for it recent enough for single executables. */
const LAUNCHER_TARGET = "darwin-arm64";

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  version: string;
  engines: { node: string };
};
const version = pkg.version;
const nodeMinimum = minimumNode(pkg.engines.node);
const downloadUrl = process.env.ADPLATFORM_PLUGIN_DOWNLOAD_URL || DEFAULT_PLUGIN_DOWNLOAD_URL;

const log = (message: string) => process.stderr.write(`dist: ${message}\n`);

function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync(command, [...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/** The schema of this release: the kept one, with the release's download URL. */
function writeSchema(): string {
  const schema = JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")) as Record<string, unknown>;
  if (schema.version !== version)
    throw new Error(`${SCHEMA_FILE} is at ${String(schema.version)}, package.json at ${version}: run npm run native:sdks`);
  const file = path.join(WORK, "schema.json");
  fs.writeFileSync(file, `${JSON.stringify({ ...schema, pluginDownloadURL: downloadUrl }, null, 2)}\n`);
  fs.copyFileSync(file, path.join(DIST, "schema.json"));
  return file;
}

/** The provider and its dependencies in one file, serving `schemaFile` and reporting `version`. */
async function bundleProvider(schemaFile: string, outFile: string): Promise<void> {
  const releaseSchema: Plugin = {
    name: "release-schema",
    setup(b) {
      b.onResolve({ filter: /^\.\/schema\.json$/ }, (args) =>
        args.importer === path.join(REPO_ROOT, "provider", "faces", "native", "schema.ts") ? { path: schemaFile } : undefined,
      );
    },
  };
  await build({
    entryPoints: [path.join(REPO_ROOT, "provider", "faces", "native", "main.ts")],
    outfile: outFile,
    bundle: true,
    platform: "node",
    target: `node${nodeMinimum.split(".")[0]}`,
    define: { ADPLATFORM_PLUGIN_VERSION: JSON.stringify(version) },
    plugins: [releaseSchema],
    // @pulumi/pulumi's automation code names node-gyp for `require.resolve`; the provider never runs it.
    logLevel: "error",
    legalComments: "eof",
  });
}

const installLine = (target: string) =>
  `    pulumi plugin install resource adplatform ${version} -f ${PLUGIN_EXECUTABLE}-v${version}-${target}.tar.gz`;

/** What macOS does with an unsigned executable, for the darwin archive's README and the install guide. */
const macOsNote = (executable: string) => `
It is not signed. The engine's download and \`pulumi plugin install\` unpack it as it is, and it
runs. macOS marks a file a browser downloads as quarantined, and the Finder and \`tar\` pass the
mark on to what they unpack; Gatekeeper refuses to open a quarantined executable that Apple has not
notarized. Clear the mark with \`xattr -d com.apple.quarantine ${executable}\`.
`;

function singleExecutableReadme(target: SingleExecutableTarget, executable: string): string {
  return `# ${PLUGIN_EXECUTABLE} v${version} (${target})

The Pulumi resource plugin of the advertising platform's JSON API. \`${executable}\` is one executable:
Node.js ${NODE_RUNTIME_VERSION} with the provider inside. It needs nothing installed.
${target.startsWith("darwin") ? macOsNote(executable) : ""}
${installLine(target)}

The engine also downloads it by itself when a program's SDK asks for it.
`;
}

function launcherReadme(target: string): string {
  return `# ${PLUGIN_EXECUTABLE} v${version} (${target})

The Pulumi resource plugin of the advertising platform's JSON API. \`${PLUGIN_EXECUTABLE}\` runs
\`lib/provider.js\` (the provider with its dependencies) with the Node.js on PATH, which must be
${nodeMinimum} or later: npm publishes no Node.js binary for ${target} that could be built into one
executable, as the other platforms' archives are.

${installLine(target)}

The engine also downloads it by itself when a program's SDK asks for it.
`;
}

/** Writes `dist/<name>` from `stage`'s `entries`, reproducibly: sorted names, no owners, one timestamp. */
function tarInto(name: string, stage: string, entries: readonly string[]): string {
  const flags = ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@0"];
  run("tar", [...flags, "-czf", path.join(DIST, name), "-C", stage, ...entries], { env: { ...process.env, GZIP: "-n" } });
  return name;
}

const archiveName = (target: string) => `${PLUGIN_EXECUTABLE}-v${version}-${target}.tar.gz`;

/** The plugin archives of the single-executable targets, laid out as the engine expects: the executable at the top. */
async function writeSingleExecutableArchives(bundle: string): Promise<string[]> {
  const host = hostTarget();
  if (host === undefined)
    throw new Error(`the single executables are built on ${SINGLE_EXECUTABLE_TARGETS.join(", ")}, not ${process.platform}-${process.arch}`);
  const blob = prepareBlob(nodeRuntime(host, NODE_RUNTIME_CACHE, WORK), bundle, WORK);
  return Promise.all(
    SINGLE_EXECUTABLE_TARGETS.map(async (target) => {
      const stage = path.join(WORK, `plugin-${target}`);
      fs.mkdirSync(stage, { recursive: true });
      const executable = target.startsWith("windows") ? `${PLUGIN_EXECUTABLE}.exe` : PLUGIN_EXECUTABLE;
      await writeSingleExecutable(target, nodeRuntime(target, NODE_RUNTIME_CACHE, WORK), blob, path.join(stage, executable));
      // The one this machine runs is run: the others are checked by their headers only.
      if (target === host) await startsAsPlugin(path.join(stage, executable));
      fs.writeFileSync(path.join(stage, "README.md"), singleExecutableReadme(target, executable));
      return tarInto(archiveName(target), stage, [executable, "README.md"]);
    }),
  );
}

/** The plugin archive of the launcher target: the launcher at the top, the bundle in lib/. */
function writeLauncherArchive(target: string, bundle: string): string {
  const stage = path.join(WORK, `plugin-${target}`);
  fs.mkdirSync(path.join(stage, "lib"), { recursive: true });
  fs.copyFileSync(bundle, path.join(stage, "lib", "provider.js"));
  fs.writeFileSync(path.join(stage, "lib", "start.js"), startScript(nodeMinimum));
  fs.writeFileSync(path.join(stage, "README.md"), launcherReadme(target));
  fs.writeFileSync(path.join(stage, PLUGIN_EXECUTABLE), shLauncher(nodeMinimum), { mode: 0o755 });
  return tarInto(archiveName(target), stage, [PLUGIN_EXECUTABLE, "README.md", "lib"]);
}

/** The Pulumi CLI's bin directory (scripts/ensure-pulumi), with the Python language host gen-sdk needs. */
function pulumiBin(): string {
  return run("bash", [path.join(REPO_ROOT, "scripts", "ensure-pulumi"), "--python"])
    .trim()
    .split("\n")
    .pop()!;
}

function generateSdks(schemaFile: string): string {
  const out = path.join(WORK, "sdks");
  const bin = pulumiBin();
  run("bash", [path.join(REPO_ROOT, "scripts", "native", "generate-sdk-sources"), out], {
    env: {
      ...process.env,
      SCHEMA: schemaFile,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    },
  });
  return out;
}

/** The npm tarball of the compiled TypeScript SDK. */
function packTypeScriptSdk(sdks: string): string {
  run("bash", [path.join(REPO_ROOT, "scripts", "native", "build-ts-sdk"), path.join(sdks, "nodejs")]);
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", DIST, path.join(sdks, "nodejs", "bin")])) as {
    filename: string;
  }[];
  return packed[0].filename;
}

/** A virtualenv with PyPA's `build`, made once. */
function pythonBuild(): string {
  const python = path.join(PYTHON_BUILD_VENV, "bin", "python");
  if (!fs.existsSync(path.join(PYTHON_BUILD_VENV, ".ready"))) {
    log(`creating ${path.relative(REPO_ROOT, PYTHON_BUILD_VENV)} with PyPA build`);
    fs.rmSync(PYTHON_BUILD_VENV, { recursive: true, force: true });
    run(process.env.PYTHON ?? "python3", ["-m", "venv", PYTHON_BUILD_VENV]);
    run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "build"]);
    fs.writeFileSync(path.join(PYTHON_BUILD_VENV, ".ready"), "");
  }
  return python;
}

/** The Python SDK's wheel and sdist. */
function buildPythonSdk(sdks: string): string[] {
  const before = new Set(fs.readdirSync(DIST));
  run(pythonBuild(), ["-m", "build", "--sdist", "--wheel", "--outdir", DIST, path.join(sdks, "python")], {
    env: { ...process.env, SOURCE_DATE_EPOCH: "315532800" },
  });
  return fs.readdirSync(DIST).filter((name) => !before.has(name));
}

/**
 * The Go SDK, generated by tools/gen-go-sdk (Pulumi's Go generator: no Go language host can be had to
 * run `pulumi package gen-sdk --language go`), built here with Go; its build cache makes the rebuild cheap.
 */
function buildGoSdk(schemaFile: string): string {
  const tool = path.join(REPO_ROOT, "tools", "gen-go-sdk");
  const env = { ...process.env, GOWORK: "off", GOFLAGS: `${process.env.GOFLAGS ?? ""} -mod=readonly`.trim() };
  const generator = path.join(WORK, "gen-go-sdk");
  try {
    run("go", ["build", "-trimpath", "-o", generator, "."], { cwd: tool, env });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new Error("the Go SDK needs Go (https://go.dev/dl/) on PATH", { cause: error });
    throw error;
  }
  const stage = path.join(WORK, "go-sdk");
  run(generator, [schemaFile, path.join(stage, GO_SDK_DIR)]);
  const name = `pulumi-adplatform-go-sdk-v${version}.tar.gz`;
  return tarInto(name, stage, [GO_SDK_DIR.split("/")[0]]);
}

function writeChecksums(): void {
  const lines = fs
    .readdirSync(DIST)
    .filter((name) => name !== "SHA256SUMS")
    .sort()
    .map(
      (name) =>
        `${createHash("sha256")
          .update(fs.readFileSync(path.join(DIST, name)))
          .digest("hex")}  ${name}`,
    );
  fs.writeFileSync(path.join(DIST, "SHA256SUMS"), `${lines.join("\n")}\n`);
}

async function main(): Promise<void> {
  fs.rmSync(DIST, { recursive: true, force: true });
  fs.rmSync(WORK, { recursive: true, force: true });
  fs.mkdirSync(DIST, { recursive: true });
  fs.mkdirSync(WORK, { recursive: true });
  log(`version ${version}, plugin download URL ${downloadUrl}`);

  const schemaFile = writeSchema();
  const bundle = path.join(WORK, "provider.js");
  await bundleProvider(schemaFile, bundle);
  for (const name of await writeSingleExecutableArchives(bundle)) log(`wrote dist/${name}`);
  log(`wrote dist/${writeLauncherArchive(LAUNCHER_TARGET, bundle)}`);

  const sdks = generateSdks(schemaFile);
  log(`wrote dist/${packTypeScriptSdk(sdks)}`);
  for (const name of buildPythonSdk(sdks)) log(`wrote dist/${name}`);
  log(`wrote dist/${buildGoSdk(schemaFile)}`);
  writeChecksums();
  fs.rmSync(WORK, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
