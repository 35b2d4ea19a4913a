/**
 * Drives the native plugin (`pulumi-resource-adplatform`, bin/provider/faces/native/main.js) the
 * way the engine does: a child process started with the engine's address, which prints its gRPC
 * port, then the `ResourceProvider` methods over gRPC. The fake engine of
 * tests/helpers/dynamicProviderHarness.ts receives its warnings.
 *
 * Runs the built package (`bin/`): `npm test` builds first.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import {
  PluginCallError,
  REPO_ROOT,
  cleanEnv,
  type CheckAnswer,
  type DiffAnswer,
  type DiffChanges,
  type Props,
} from "../../helpers/dynamicProviderHarness";

/** The plugin's entry in the built package (what package.json's `bin` names). */
export const NATIVE_PLUGIN_MAIN = path.join(REPO_ROOT, "bin", "provider", "faces", "native", "main.js");

/** `urn:pulumi:test::native::adplatform:index:<Kind>::<name>`. */
export function nativeUrn(kind: string, name: string): string {
  return `urn:pulumi:test::native::adplatform:index:${kind}::${name}`;
}

/** A running native plugin and typed wrappers of its gRPC methods. */
export interface NativePlugin {
  getSchema(): Promise<string>;
  getPluginInfo(): Promise<string>;
  /** `Configure` with the provider's arguments and, optionally, the engine's config variables. */
  configure(args: Props, variables?: Record<string, string>): Promise<void>;
  check(urn: string, olds: Props, news: Props): Promise<CheckAnswer>;
  diff(id: string, urn: string, olds: Props, news: Props): Promise<DiffAnswer>;
  create(urn: string, properties: Props): Promise<{ id: string; properties: Props }>;
  /** `Read`; `properties` undefined sends none, as the engine does for an import. */
  read(id: string, urn: string, properties: Props | undefined): Promise<{ id: string; properties: Props; inputs?: Props }>;
  update(id: string, urn: string, olds: Props, news: Props): Promise<{ properties: Props }>;
  delete(id: string, urn: string, properties: Props): Promise<void>;
  invoke(token: string, args: Props): Promise<{ result: Props; failures: { property: string; reason: string }[] }>;
  stderr(): string;
  close(): Promise<void>;
}

const toStruct = (props: Props) => Struct.fromJavaScript(props as Record<string, never>);
const fromStruct = (struct: Struct | undefined): Props => (struct?.toJavaScript() ?? {}) as Props;

/** Starts the plugin with `engineAddress` as its argument. */
export async function startNativePlugin(engineAddress: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<NativePlugin> {
  const child = spawn(process.execPath, [NATIVE_PLUGIN_MAIN, engineAddress], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  let out = "";
  const port = await Promise.race([
    new Promise<number>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        const line = /^(\d+)\s*\n/.exec(out);
        if (line) resolve(Number(line[1]));
      }),
    ),
    once(child, "exit").then(([code]) => {
      throw new Error(`the native plugin exited (${String(code)}) before printing its port: ${stderr}`);
    }),
  ]);
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
    async getSchema() {
      const res = await call<provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest());
      return res.getSchema();
    },
    async getPluginInfo() {
      const res = await call<plugproto.PluginInfo>("getPluginInfo", new emptyproto.Empty());
      return res.getVersion();
    },
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
      return { changes: changes[res.getChanges()]!, replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
    },
    async create(urn, properties) {
      const req = new provproto.CreateRequest();
      req.setUrn(urn);
      req.setProperties(toStruct(properties));
      const res = await call<provproto.CreateResponse>("create", req);
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },
    async read(id, urn, properties) {
      const req = new provproto.ReadRequest();
      req.setId(id);
      req.setUrn(urn);
      if (properties) req.setProperties(toStruct(properties));
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
    async invoke(token, args) {
      const req = new provproto.InvokeRequest();
      req.setTok(token);
      req.setArgs(toStruct(args));
      const res = await call<provproto.InvokeResponse>("invoke", req);
      return {
        result: fromStruct(res.getReturn()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
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
