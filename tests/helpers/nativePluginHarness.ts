/**
 * Drives the native plugin (`pulumi-resource-adplatform`, bin/provider/faces/native/main.js) the
 * way the engine does: a child process started with the engine's address, which prints its gRPC
 * port, then the `ResourceProvider` methods over gRPC (tests/helpers/resourceProviderPlugin.ts,
 * shared with the dynamic provider's harness). The fake engine of
 * tests/helpers/dynamicProviderHarness.ts receives its warnings.
 *
 * Runs the built package (`bin/`): `npm test` builds first.
 */
import * as path from "node:path";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { startSimulator, type AccountConfig, type RunningSimulator } from "../../simulator";
import { REPO_ROOT, cleanEnv, startFakeEngine, type FakeEngine } from "./dynamicProviderHarness";
import { secretValue } from "./lifecycleEnv";
import { type Props, type ResourceProviderPlugin, fromStruct, startResourceProviderPlugin, toStruct } from "./resourceProviderPlugin";

/** The plugin's entry in the built package (what package.json's `bin` names). */
export const NATIVE_PLUGIN_MAIN = path.join(REPO_ROOT, "bin", "provider", "faces", "native", "main.js");

/** `urn:pulumi:test::native::adplatform:index:<Kind>::<name>`. */
export function nativeUrn(kind: string, name: string): string {
  return `urn:pulumi:test::native::adplatform:index:${kind}::${name}`;
}

/** A running native plugin: the methods of every resource provider, and those only it has. */
export interface NativePlugin extends ResourceProviderPlugin {
  getSchema(): Promise<string>;
  getPluginInfo(): Promise<string>;
  invoke(token: string, args: Props): Promise<{ result: Props; failures: { property: string; reason: string }[] }>;
}

/** Starts the plugin with `engineAddress` as its argument. */
export async function startNativePlugin(engineAddress: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<NativePlugin> {
  const plugin = await startResourceProviderPlugin({ name: "native plugin", args: [NATIVE_PLUGIN_MAIN, engineAddress], env });
  return {
    ...plugin,
    async getSchema() {
      const res = await plugin.call<provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest());
      return res.getSchema();
    },
    async getPluginInfo() {
      const res = await plugin.call<plugproto.PluginInfo>("getPluginInfo", new emptyproto.Empty());
      return res.getVersion();
    },
    async invoke(token, args) {
      const req = new provproto.InvokeRequest();
      req.setTok(token);
      req.setArgs(toStruct(args));
      const res = await plugin.call<provproto.InvokeResponse>("invoke", req);
      return {
        result: fromStruct(res.getReturn()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
  };
}

/** The simulator's account the plugin is configured for. */
export const DEMO_ACCOUNT: AccountConfig = { account: "demo", token: "demo-token", companyId: "7001" };

/** A configured plugin and what it talks to. */
export interface NativePluginSuite {
  readonly sim: RunningSimulator;
  readonly engine: FakeEngine;
  readonly plugin: NativePlugin;
}

/**
 * Registers the hooks of a suite of one plugin: beforeAll starts a simulator with `accounts`, a fake
 * engine and the plugin, configured for `DEMO_ACCOUNT`; beforeEach resets the simulator and clears
 * the engine's logs; afterAll closes all three.
 */
export function useNativePlugin(accounts: readonly AccountConfig[] = [DEMO_ACCOUNT]): NativePluginSuite {
  const suite = {} as { -readonly [K in keyof NativePluginSuite]: NativePluginSuite[K] };
  beforeAll(async () => {
    suite.sim = await startSimulator({ accounts });
    suite.engine = await startFakeEngine();
    suite.plugin = await startNativePlugin(suite.engine.address);
    await suite.plugin.configure({ baseUrl: suite.sim.url, token: secretValue(DEMO_ACCOUNT.token) });
  });
  afterAll(async () => {
    await suite.plugin?.close();
    await suite.engine?.close();
    await suite.sim?.close();
  });
  beforeEach(() => {
    suite.sim.reset();
    suite.engine.clear();
  });
  return suite;
}
