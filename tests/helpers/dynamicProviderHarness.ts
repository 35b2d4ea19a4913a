/**
 * Drives the real `@pulumi/pulumi` dynamic-provider plugin the way the engine does
 * (docs/ARCHITECTURE.md, "Test layers", layer 3): a child process started as
 * `node .../cmd/dynamic-provider/index.js <engine>`, which prints its gRPC port, then `Configure` /
 * `Check` / `Diff` / `Create` / `Read` / `Update` / `Delete` over gRPC with `__provider` texts
 * serialized by `@pulumi/pulumi` itself.
 *
 * A fake engine (the `pulumirpc.Engine` service: `Log` and friends) receives what the plugin logs,
 * so tests can assert the warnings the user would see.
 *
 * The plugin resolves `pulumi-adplatform/provider` from its working directory, as it does from a
 * Pulumi program's directory: `makeProgramDir` links the package into a temporary program's
 * `node_modules`. Everything here runs against the built package (`bin/`), so build first
 * (`npm test` does; `npx tsc -p tsconfig.json` when running jest directly).
 *
 * Longer than our ~350-line norm because it is the one place that knows the plugin's protocol:
 * starting it, the fake engine, the Struct conversions, one typed wrapper per gRPC method and the
 * serializer script, all of which the lifecycle, fault and secrets suites share.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";

/** The repository root (holds package.json, bin/ and node_modules/). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** The plugin's entry, as the engine's `pulumi-resource-pulumi-nodejs` script starts it. */
export const PLUGIN_MAIN = path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "cmd", "dynamic-provider", "index.js");

/** Plain JSON-like property maps, as they travel in a `google.protobuf.Struct`. */
export type Props = Record<string, unknown>;

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

/** `DiffResponse.changes` in words. */
export type DiffChanges = "unknown" | "none" | "some";

/** What `Diff` answered. */
export interface DiffAnswer {
  readonly changes: DiffChanges;
  readonly replaces: string[];
  readonly deleteBeforeReplace: boolean;
}

/** What `Check` answered. */
export interface CheckAnswer {
  readonly inputs: Props;
  readonly failures: { property: string; reason: string }[];
}

/** A running plugin and typed wrappers of its gRPC methods. */
export interface DynamicProviderPlugin {
  configure(config: Props): Promise<void>;
  check(urn: string, olds: Props, news: Props): Promise<CheckAnswer>;
  diff(id: string, urn: string, olds: Props, news: Props): Promise<DiffAnswer>;
  create(urn: string, properties: Props): Promise<{ id: string; properties: Props }>;
  read(id: string, urn: string, properties: Props, inputs?: Props): Promise<{ id: string; properties: Props; inputs?: Props }>;
  update(id: string, urn: string, olds: Props, news: Props): Promise<{ properties: Props }>;
  delete(id: string, urn: string, properties: Props): Promise<void>;
  /** Everything the plugin wrote to stderr so far. */
  stderr(): string;
  /** Stops the plugin process. */
  close(): Promise<void>;
}

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

/**
 * A value as the engine sends it: undefined fields dropped (it never sends them), undefined array
 * items as null, numbers as they are (`NaN` and `Infinity` included, as a Pulumi program's SDK puts
 * them into the Struct; a JSON round trip would turn them into null).
 */
function asSent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : asSent(item)));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).flatMap(([key, item]) => (item === undefined ? [] : [[key, asSent(item)]])));
  }
  return value;
}

function toStruct(props: Props): Struct {
  return Struct.fromJavaScript(asSent(props) as Record<string, never>);
}

function fromStruct(struct: Struct | undefined): Props {
  return (struct?.toJavaScript() ?? {}) as Props;
}

/** A gRPC error carrying the plugin's message in `details`. */
export class PluginCallError extends Error {
  constructor(
    readonly method: string,
    readonly details: string,
    readonly code: number,
  ) {
    super(`${method} failed: ${details}`);
  }
}

function unary<Req, Res>(
  client: grpc.Client,
  method: string,
  fn: (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown,
  req: Req,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    fn.call(client, req, (err, res) => (err ? reject(new PluginCallError(method, err.details, err.code)) : resolve(res)));
  });
}

/** Reads the first stdout line of the plugin: its gRPC port. */
async function readPort(child: ChildProcess, stderr: () => string): Promise<number> {
  let out = "";
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`the dynamic-provider plugin exited (${String(code)}) before printing its port: ${stderr()}`);
  });
  const port = new Promise<number>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = /^(\d+)\s*\n/.exec(out);
      if (line) resolve(Number(line[1]));
    });
  });
  return Promise.race([port, exited]);
}

/** Starts the plugin and connects a `ResourceProvider` client to it. */
export async function startDynamicProviderPlugin(options: PluginOptions): Promise<DynamicProviderPlugin> {
  const args = options.throughParent ? ["-e", PARENT_SCRIPT, PLUGIN_MAIN, options.engineAddress] : [PLUGIN_MAIN, options.engineAddress];
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const port = await readPort(child, () => stderr);
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  type Method = (req: unknown, cb: (err: grpc.ServiceError | null, res: unknown) => void) => unknown;
  const methods = client as unknown as Record<string, Method>;
  const call = <Res>(method: string, req: unknown) => unary<unknown, unknown>(client, method, methods[method], req) as Promise<Res>;

  return {
    async configure(config) {
      const req = new provproto.ConfigureRequest();
      req.setArgs(toStruct(config));
      await call<provproto.ConfigureResponse>("configure", req);
    },
    async check(urn, olds, news) {
      const req = new provproto.CheckRequest();
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await call<provproto.CheckResponse>("check", req);
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(id, urn, olds, news) {
      const req = new provproto.DiffRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await call<provproto.DiffResponse>("diff", req);
      const changes: Record<number, DiffChanges> = {
        [provproto.DiffResponse.DiffChanges.DIFF_UNKNOWN]: "unknown",
        [provproto.DiffResponse.DiffChanges.DIFF_NONE]: "none",
        [provproto.DiffResponse.DiffChanges.DIFF_SOME]: "some",
      };
      return {
        changes: changes[res.getChanges()],
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
      };
    },
    async create(urn, properties) {
      const req = new provproto.CreateRequest();
      req.setUrn(urn);
      req.setProperties(toStruct(properties));
      const res = await call<provproto.CreateResponse>("create", req);
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },
    async read(id, urn, properties, inputs) {
      const req = new provproto.ReadRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setProperties(toStruct(properties));
      if (inputs) req.setInputs(toStruct(inputs));
      const res = await call<provproto.ReadResponse>("read", req);
      return {
        id: res.getId(),
        properties: fromStruct(res.getProperties()),
        ...(res.hasInputs() ? { inputs: fromStruct(res.getInputs()) } : {}),
      };
    },
    async update(id, urn, olds, news) {
      const req = new provproto.UpdateRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await call<provproto.UpdateResponse>("update", req);
      return { properties: fromStruct(res.getProperties()) };
    },
    async delete(id, urn, properties) {
      const req = new provproto.DeleteRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setProperties(toStruct(properties));
      await call<emptyproto.Empty>("delete", req);
    },
    stderr: () => stderr,
    async close() {
      client.close();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, "exit");
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
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
