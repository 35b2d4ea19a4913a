/**
 * The plugin archive's launcher and version gate (scripts/dist/launchers.ts), run for real: the sh
 * launcher with a PATH that has no `node`, and lib/start.js under this Node.js with a minimum above
 * it. Each failure is one line on stderr that names what to install; with a Node.js that suffices,
 * the launcher runs the bundle with the engine's arguments.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { minimumNode, shLauncher, startScript } from "../../../scripts/dist/launchers";

let dir: string;

/** A plugin directory as the archive lays it out, with `provider` as lib/provider.js. */
function pluginDir(minimum: string, provider: string): string {
  const root = fs.mkdtempSync(path.join(dir, "plugin-"));
  fs.mkdirSync(path.join(root, "lib"));
  fs.writeFileSync(path.join(root, "pulumi-resource-adplatform"), shLauncher(minimum), { mode: 0o755 });
  fs.writeFileSync(path.join(root, "lib", "start.js"), startScript(minimum));
  fs.writeFileSync(path.join(root, "lib", "provider.js"), provider);
  return root;
}

/** A directory with links to the few tools the launcher uses, and no node. */
function pathWithoutNode(): string {
  const bin = path.join(dir, "no-node-bin");
  fs.mkdirSync(bin, { recursive: true });
  for (const tool of ["dirname"]) {
    const found = ["/usr/bin", "/bin"].map((d) => path.join(d, tool)).find((f) => fs.existsSync(f))!;
    if (!fs.existsSync(path.join(bin, tool))) fs.symlinkSync(found, path.join(bin, tool));
  }
  return bin;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-launchers-"));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it("reads the minimum from engines.node and refuses any other form", () => {
  expect(minimumNode(">=20.18.1")).toBe("20.18.1");
  expect(() => minimumNode("^20")).toThrow(/engines.node must read ">=X.Y.Z"/);
});

it("without node on PATH, fails in one line naming Node.js and its minimum", () => {
  const root = pluginDir("20.18.1", "");
  const result = spawnSync("/bin/sh", [path.join(root, "pulumi-resource-adplatform"), "127.0.0.1:1"], {
    env: { PATH: pathWithoutNode() },
    encoding: "utf8",
  });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toBe(
    "pulumi-resource-adplatform: needs Node.js 20.18.1 or later, and no 'node' is on PATH (install it from https://nodejs.org)\n",
  );
});

it("with a Node.js older than the minimum, fails in one line naming both versions", () => {
  const [major] = process.versions.node.split(".").map(Number);
  const minimum = `${major! + 1}.0.0`;
  const root = pluginDir(minimum, "process.stdout.write('started');\n");
  const result = spawnSync(path.join(root, "pulumi-resource-adplatform"), [], { encoding: "utf8" });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toBe(
    `pulumi-resource-adplatform: needs Node.js ${minimum} or later, and the 'node' on PATH is ${process.version} (install a newer one from https://nodejs.org)\n`,
  );
});

it("with a Node.js that suffices, runs the bundle with the engine's arguments", () => {
  const root = pluginDir(process.versions.node, "process.stdout.write(JSON.stringify(process.argv.slice(2)));\n");
  const result = spawnSync(path.join(root, "pulumi-resource-adplatform"), ["127.0.0.1:4242", "--logtostderr"], { encoding: "utf8" });
  expect([result.status, result.stderr, JSON.parse(result.stdout)]).toEqual([0, "", ["127.0.0.1:4242", "--logtostderr"]]);
});
