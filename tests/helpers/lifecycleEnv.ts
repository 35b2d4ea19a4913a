/**
 * One lifecycle test environment: a simulator (with a recognisable token, so tests can prove it
 * never leaks), a fake engine, the real dynamic-provider plugin started from a program directory
 * that links this package, and the four `__provider` texts serialized by `@pulumi/pulumi`.
 */
import { startSimulator, type RunningSimulator, type SimulatorOptions } from "../../simulator";
import type { LoggedCall } from "../../simulator";
import {
  REPO_ROOT,
  cleanEnv,
  dynamicUrn,
  makeProgramDir,
  serializeProviders,
  startDynamicProviderPlugin,
  startFakeEngine,
  type DynamicProviderPlugin,
  type FakeEngine,
  type Kind,
  type Props,
  type SerializedKind,
} from "./dynamicProviderHarness";

/** A token nobody would write by accident: searched for in every text the provider returns. */
export const RECOGNISABLE_TOKEN = "tok-RECOGNISABLE-7f3a9c1e-never-in-state";

/** The secret envelope the engine wraps secret config values in (`pulumi config set --secret`). */
export function secretValue(value: string): Props {
  return { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value };
}

/** What a lifecycle test works with. */
export interface LifecycleEnv {
  readonly sim: RunningSimulator;
  readonly engine: FakeEngine;
  readonly plugin: DynamicProviderPlugin;
  readonly providers: Record<Kind, SerializedKind>;
  /** `news` for `kind`: the inputs plus that kind's `__provider` text, as the engine sends them. */
  inputs(kind: Kind, props: Props): Props;
  /** URN of a resource of `kind` named `name`. */
  urn(kind: Kind, name: string): string;
  /** Calls of one operation number the simulator received (account `demo`). */
  calls(op: number): LoggedCall[];
  /** Every API call the simulator received (account `demo`). */
  totalCalls(): number;
  /** Starts another plugin process (same program directory and engine). */
  startPlugin(env?: NodeJS.ProcessEnv): Promise<DynamicProviderPlugin>;
  close(): Promise<void>;
}

/** Options of `startLifecycleEnv`. */
export interface LifecycleEnvOptions {
  /** Simulator options on top of the recognisable-token account. */
  readonly simulator?: Partial<SimulatorOptions>;
  /** Stack config sent with `Configure`; default: base URL and the token as a secret. */
  readonly config?: (sim: RunningSimulator) => Props;
  /** Environment of the plugin (default: without ADPLATFORM_*). */
  readonly env?: (sim: RunningSimulator) => NodeJS.ProcessEnv;
}

/** Starts everything; call `close()` in `afterAll`. */
export async function startLifecycleEnv(options: LifecycleEnvOptions = {}): Promise<LifecycleEnv> {
  const providers = await serializeProviders(REPO_ROOT);
  const sim = await startSimulator({
    accounts: [{ account: "demo", token: RECOGNISABLE_TOKEN, companyId: "7001" }],
    ...options.simulator,
  });
  const engine = await startFakeEngine();
  const program = makeProgramDir(REPO_ROOT);
  const plugins: DynamicProviderPlugin[] = [];
  const startPlugin = async (env?: NodeJS.ProcessEnv) => {
    const plugin = await startDynamicProviderPlugin({ cwd: program.dir, engineAddress: engine.address, env: env ?? cleanEnv() });
    plugins.push(plugin);
    return plugin;
  };
  const plugin = await startPlugin(options.env ? options.env(sim) : undefined);
  const config = options.config
    ? options.config(sim)
    : { "adplatform:baseUrl": sim.url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) };
  await plugin.configure(config);

  return {
    sim,
    engine,
    plugin,
    providers,
    inputs: (kind, props) => ({ ...props, __provider: providers[kind].provider }),
    urn: dynamicUrn,
    calls: (op) => sim.requests().operations[String(op)]?.calls ?? [],
    totalCalls: () => sim.requests().total,
    startPlugin,
    async close() {
      await Promise.all(plugins.map((p) => p.close()));
      await engine.close();
      await sim.close();
      program.remove();
    },
  };
}
