/**
 * What the engine does with any resource-provider plugin, shared by the harnesses of the dynamic
 * provider (`dynamicProviderHarness.ts`) and of the native plugin
 * (`tests/helpers/nativePluginHarness.ts`): start the plugin as a child process with the
 * engine's address, read the gRPC port it prints first, connect a `ResourceProvider` client, and
 * call its methods with property maps converted to and from `google.protobuf.Struct`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";

/** Plain JSON-like property maps, as they travel in a `google.protobuf.Struct`. */
export type Props = Record<string, unknown>;

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

/** `props` as the engine puts them into a request. */
export function toStruct(props: Props): Struct {
  return Struct.fromJavaScript(asSent(props) as Record<string, never>);
}

/** A Struct of an answer as plain properties (none: `{}`). */
export function fromStruct(struct: Struct | undefined): Props {
  return (struct?.toJavaScript() ?? {}) as Props;
}

/** A running resource-provider plugin and typed wrappers of the gRPC methods every plugin has. */
export interface ResourceProviderPlugin {
  /** `Configure` with the provider's arguments and, optionally, the engine's config variables. */
  configure(args: Props, variables?: Record<string, string>): Promise<void>;
  check(urn: string, olds: Props, news: Props): Promise<CheckAnswer>;
  /** `Diff`; `oldInputs` is sent as the state's inputs, as the engine sends them beside the old outputs. */
  diff(id: string, urn: string, olds: Props, news: Props, oldInputs?: Props): Promise<DiffAnswer>;
  create(urn: string, properties: Props): Promise<{ id: string; properties: Props }>;
  /** `Read`; `properties` undefined sends none, as the engine does for an import. */
  read(id: string, urn: string, properties: Props | undefined, inputs?: Props): Promise<{ id: string; properties: Props; inputs?: Props }>;
  update(id: string, urn: string, olds: Props, news: Props): Promise<{ properties: Props }>;
  delete(id: string, urn: string, properties: Props): Promise<void>;
  /** Any unary method of the service by its client name (`getSchema`, `invoke`, ...). */
  call<Res>(method: string, req: unknown): Promise<Res>;
  /** Everything the plugin wrote to stderr so far. */
  stderr(): string;
  /** Stops the plugin process. */
  close(): Promise<void>;
}

/** How to start a plugin. */
export interface PluginProcessOptions {
  /** Names the plugin in the error thrown when it exits before printing its port. */
  readonly name: string;
  /** Arguments of `node`: the plugin's entry (or a parent script) and the engine's address. */
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/** Reads the first stdout line of the plugin: its gRPC port. */
async function readPort(child: ChildProcess, name: string, stderr: () => string): Promise<number> {
  let out = "";
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`the ${name} exited (${String(code)}) before printing its port: ${stderr()}`);
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

/** Starts a plugin with `node` and connects a `ResourceProvider` client to the port it prints. */
export async function startResourceProviderPlugin(options: PluginProcessOptions): Promise<ResourceProviderPlugin> {
  const child = spawn(process.execPath, [...options.args], { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const port = await readPort(child, options.name, () => stderr);
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  type Method = (req: unknown, cb: (err: grpc.ServiceError | null, res: unknown) => void) => unknown;
  const methods = client as unknown as Record<string, Method>;
  const call = <Res>(method: string, req: unknown) =>
    new Promise<Res>((resolve, reject) =>
      methods[method]!.call(client, req, (err, res) =>
        err ? reject(new PluginCallError(method, err.details, err.code)) : resolve(res as Res),
      ),
    );

  return {
    async configure(args, variables = {}) {
      const req = new provproto.ConfigureRequest();
      req.setArgs(toStruct(args));
      for (const [key, value] of Object.entries(variables)) req.getVariablesMap().set(key, value);
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
    async diff(id, urn, olds, news, oldInputs) {
      const req = new provproto.DiffRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      if (oldInputs !== undefined) req.setOldInputs(toStruct(oldInputs));
      req.setNews(toStruct(news));
      const res = await call<provproto.DiffResponse>("diff", req);
      const changes: Record<number, DiffChanges> = {
        [provproto.DiffResponse.DiffChanges.DIFF_UNKNOWN]: "unknown",
        [provproto.DiffResponse.DiffChanges.DIFF_NONE]: "none",
        [provproto.DiffResponse.DiffChanges.DIFF_SOME]: "some",
      };
      return { changes: changes[res.getChanges()]!, replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
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
      if (properties) req.setProperties(toStruct(properties));
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
    call,
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
