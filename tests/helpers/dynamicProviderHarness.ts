/**
 * Drives the real `@pulumi/pulumi` dynamic-provider plugin the way the engine does
 * (tests/README.md): a child process started as
 * `node .../cmd/dynamic-provider/index.js <engine>`, which prints its gRPC port, then `Configure` /
 * `Check` / `Diff` / `Create` / `Read` / `Update` / `Delete` over gRPC (`resourceProviderPlugin.ts`,
 * shared with the native plugin's harness) with `__provider` texts serialized by `@pulumi/pulumi`
 * itself.
 *
 * A fake engine (the `pulumirpc.Engine` service: `Log` and friends) receives what the plugin logs,
 * so tests can assert the warnings the user would see.
 *
 * The plugin resolves `pulumi-adplatform/provider` from its working directory, as it does from a
 * Pulumi program's directory: `makeProgramDir` links the package into a temporary program's
 * `node_modules`. Everything here runs against the built package (`bin/`), so build first
 * (`npm test` does; `npx tsc -p tsconfig.json` when running jest directly).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import { type ResourceProviderPlugin, startResourceProviderPlugin } from "./resourceProviderPlugin";

export { type CheckAnswer, type DiffAnswer, type DiffChanges, PluginCallError, type Props } from "./resourceProviderPlugin";

/** The repository root (holds package.json, bin/ and node_modules/). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** The plugin's entry, as the engine's `pulumi-resource-pulumi-nodejs` script starts it. */
export const PLUGIN_MAIN = path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "cmd", "dynamic-provider", "index.js");

// ---------------------------------------------------------------------------------------------
// Fake engine
// ---------------------------------------------------------------------------------------------

/** One `Log` call received by the fake engine. */
export interface CapturedLog {
  readonly severity: "debug" | "info" | "warning" | "error";
  readonly message: string;
  readonly urn: string;
}

/** A listening fake engine. */
export interface FakeEngine {
  /** `127.0.0.1:<port>`: the argument the plugin is started with. */
  readonly address: string;
  /** Every `Log` call so far, in order. */
  readonly logs: CapturedLog[];
  /** Messages of the warnings so far. */
  warnings(): string[];
  /** Forgets the logs received so far. */
  clear(): void;
  close(): Promise<void>;
}

const SEVERITY: Record<number, CapturedLog["severity"]> = {
  [engproto.LogSeverity.DEBUG]: "debug",
  [engproto.LogSeverity.INFO]: "info",
  [engproto.LogSeverity.WARNING]: "warning",
  [engproto.LogSeverity.ERROR]: "error",
};

/** Starts a fake `pulumirpc.Engine` on loopback that records `Log` calls. */
export async function startFakeEngine(): Promise<FakeEngine> {
  const logs: CapturedLog[] = [];
  const server = new grpc.Server();
  const unimplemented = (_call: unknown, callback: grpc.sendUnaryData<never>) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: "not implemented by the fake engine" }, null);
  const service: engrpc.IEngineServer = {
    log(call, callback) {
      const req = call.request;
      logs.push({ severity: SEVERITY[req.getSeverity()] ?? "info", message: req.getMessage(), urn: req.getUrn() });
      callback(null, new emptyproto.Empty());
    },
    getRootResource: unimplemented,
    setRootResource: unimplemented,
    startDebugging: unimplemented,
    requirePulumiVersion: unimplemented,
  };
  server.addService(engrpc.EngineService, service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    logs,
    warnings: () => logs.filter((l) => l.severity === "warning").map((l) => l.message),
    clear: () => void logs.splice(0, logs.length),
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

// ---------------------------------------------------------------------------------------------
// The plugin
// ---------------------------------------------------------------------------------------------

/** A running dynamic-provider plugin and typed wrappers of its gRPC methods. */
export type DynamicProviderPlugin = ResourceProviderPlugin;

/** Where and how to start the plugin. */
export interface PluginOptions {
  /** Working directory: the Pulumi program's directory, from which the package name resolves. */
  readonly cwd: string;
  /** Address of the (fake) engine, passed as the plugin's argument. */
  readonly engineAddress: string;
  /** Environment of the plugin process (defaults to this process's, without ADPLATFORM_*). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Starts the plugin as the child of a parent process that stands for the engine (as the CLI is
   * its parent in a real update); `close()` then ends that parent only, as a killed CLI would.
   */
  readonly throughParent?: boolean;
}

/** The parent of `throughParent`: starts the plugin with this process's stdout and stays alive. */
const PARENT_SCRIPT = `
const [main, engine] = process.argv.slice(1);
require("node:child_process").spawn(process.execPath, [main, engine], { stdio: ["ignore", "inherit", "inherit"] });
setInterval(() => undefined, 60_000);
`;

/** `process.env` without the provider's own variables, so only what a test sets is seen. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ADPLATFORM_BASE_URL;
  delete env.ADPLATFORM_TOKEN;
  return { ...env, ...extra };
}

/** Starts the plugin and connects a `ResourceProvider` client to it. */
export async function startDynamicProviderPlugin(options: PluginOptions): Promise<DynamicProviderPlugin> {
  const args = options.throughParent ? ["-e", PARENT_SCRIPT, PLUGIN_MAIN, options.engineAddress] : [PLUGIN_MAIN, options.engineAddress];
  return startResourceProviderPlugin({ name: "dynamic-provider plugin", args, cwd: options.cwd, env: options.env ?? cleanEnv() });
}

// ---------------------------------------------------------------------------------------------
// Serializing the providers and the program directory
// ---------------------------------------------------------------------------------------------

/** The four kinds, as the serializer script builds them. */
export const KINDS = ["BidStrategy", "CampaignGroup", "BidModifier", "AbTestVariation"] as const;
/** One resource kind. */
export type Kind = (typeof KINDS)[number];

/** `pulumi-nodejs:dynamic/adplatform:<kind>` URN of a resource named `name`. */
export function dynamicUrn(kind: Kind, name: string): string {
  return `urn:pulumi:test::lifecycle::pulumi-nodejs:dynamic/adplatform:${kind}::${name}`;
}

/**
 * Run in a child process with the package root as argv[1]: builds one resource of each kind under
 * `pulumi.runtime.setMocks` and prints `{ kind: { type, provider } }` from what the mock received.
 */
const SERIALIZE_SCRIPT = `
const root = process.argv[1];
const pulumi = require(require.resolve("@pulumi/pulumi", { paths: [root] }));
const captured = {};
pulumi.runtime.setMocks({
  newResource(args) {
    captured[args.type.split(":").pop()] = { type: args.type, provider: args.inputs.__provider };
    return { id: args.name + "-id", state: args.inputs };
  },
  call() { return {}; },
}, "lifecycle", "test", false);
const sdk = require(require("path").join(root, "bin", "sdk", "resources", "index.js"));
const resources = [
  new sdk.BidStrategy("s", { name: "S", strategy: "exact", value: 1, maxValue: 2 }),
  new sdk.CampaignGroup("g", { name: "G", color: "#000000", items: ["1"] }),
  new sdk.BidModifier("m", { bidModifierId: "501", name: "M" }),
  new sdk.AbTestVariation("v", { abTestId: "301", variationId: "1", name: "V" }),
];
Promise.all(resources.map((r) => new Promise((resolve) => r.urn.apply(resolve)))).then(() => {
  process.stdout.write(JSON.stringify(captured));
});
`;

/** What the mock saw for one kind: the resource type token and the serialized `__provider`. */
export interface SerializedKind {
  readonly type: string;
  readonly provider: string;
}

/**
 * Serializes the four resources' providers with `@pulumi/pulumi` (under mocks) from the package at
 * `packageRoot`, in a child process whose working directory is `cwd` (default: a temp dir).
 */
export async function serializeProviders(packageRoot: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<Record<Kind, SerializedKind>> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "adp-serialize-"));
  try {
    const child = spawn(process.execPath, ["-e", SERIALIZE_SCRIPT, packageRoot], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout!.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr!.on("data", (c: Buffer) => (err += c.toString("utf8")));
    const [code] = (await once(child, "exit")) as [number | null];
    if (code !== 0) throw new Error(`serializing the providers failed (${String(code)}): ${err}`);
    return JSON.parse(out) as Record<Kind, SerializedKind>;
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

/**
 * A copy of the built package (package.json + bin/) in a fresh directory, as a second checkout
 * would have it; its `node_modules` links to the repository's.
 */
export function copyBuiltPackage(): { root: string; remove(): void } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "adp-checkout-"));
  const root = path.join(base, "pulumi-adplatform");
  fs.mkdirSync(root);
  fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(root, "package.json"));
  fs.cpSync(path.join(REPO_ROOT, "bin"), path.join(root, "bin"), { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
  return { root, remove: () => fs.rmSync(base, { recursive: true, force: true }) };
}

/**
 * A Pulumi program directory whose `node_modules/pulumi-adplatform` links to `packageRoot`, so the
 * plugin started there resolves the package by name, as in a user's project.
 */
export function makeProgramDir(packageRoot: string = REPO_ROOT): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adp-program-"));
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(packageRoot, path.join(dir, "node_modules", "pulumi-adplatform"), "dir");
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
