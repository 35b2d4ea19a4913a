/**
 * `Check` with a `Struct` built straight from JavaScript values. The shared harness sends props
 * through a JSON round trip, which turns `NaN` and `Infinity` into `null`; a Pulumi program does not
 * (the SDK puts numbers into the Struct as they are), so the bad-input suite sends them this way.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { cleanEnv, PLUGIN_MAIN, type CheckAnswer, type Props } from "../helpers/dynamicProviderHarness";

/** A plugin process reached through a raw gRPC client. */
export interface RawCheckPlugin {
  configure(config: Props): Promise<void>;
  check(urn: string, news: Props): Promise<CheckAnswer>;
  close(): Promise<void>;
}

/** Starts the dynamic-provider plugin in `cwd` (a program directory) against `engineAddress`. */
export async function startRawCheckPlugin(cwd: string, engineAddress: string): Promise<RawCheckPlugin> {
  const child = spawn(process.execPath, [PLUGIN_MAIN, engineAddress], { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      const line = /^(\d+)\s*\n/.exec(out);
      if (line) resolve(Number(line[1]));
    });
    child.once("exit", (code) => reject(new Error(`plugin exited (${String(code)}): ${stderr}`)));
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const unary = <Res>(fn: (req: never, cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown, req: unknown) =>
    new Promise<Res>((resolve, reject) => fn.call(client, req as never, (err, res) => (err ? reject(new Error(err.details)) : resolve(res))));
  return {
    async configure(config) {
      const req = new provproto.ConfigureRequest();
      req.setArgs(Struct.fromJavaScript(config as never));
      await unary<provproto.ConfigureResponse>(client.configure as never, req);
    },
    async check(urn, news) {
      const req = new provproto.CheckRequest();
      req.setUrn(urn);
      req.setOlds(Struct.fromJavaScript({}));
      req.setNews(Struct.fromJavaScript(news as never));
      const res = await unary<provproto.CheckResponse>(client.check as never, req);
      return {
        inputs: (res.getInputs()?.toJavaScript() ?? {}) as Props,
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
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
