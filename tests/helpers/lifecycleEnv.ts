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
  /** Starts another plugin process (same program directory and engine); see `PluginOptions.throughParent`. */
  startPlugin(env?: NodeJS.ProcessEnv, options?: { throughParent?: boolean }): Promise<DynamicProviderPlugin>;
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
  const startPlugin = async (env?: NodeJS.ProcessEnv, pluginOptions: { throughParent?: boolean } = {}) => {
    const plugin = await startDynamicProviderPlugin({
      cwd: program.dir,
      engineAddress: engine.address,
      env: env ?? cleanEnv(),
      ...pluginOptions,
    });
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

/** What `lifecycleSuite` gives a test file about one resource. */
export interface LifecycleSuite {
  /** The suite's environment (valid inside tests and hooks, once `beforeAll` has run). */
  readonly env: LifecycleEnv;
  /** URN of the suite's resource. */
  urn(): string;
  /** `news` of the suite's kind: `props` plus its `__provider`. */
  news(props: Props): Props;
  /** Runs `Check`, expects no failure and returns the checked inputs. */
  checked(props: Props): Promise<Props>;
}

/**
 * Registers the hooks every per-resource lifecycle file needs: one environment for the file
 * (started in `beforeAll`, closed in `afterAll`), simulator state and captured engine logs reset
 * before each test, so tests do not see each other's objects or warnings.
 */
export function lifecycleSuite(kind: Kind, name: string, options: LifecycleEnvOptions = {}): LifecycleSuite {
  let current: LifecycleEnv | undefined;
  const started = (): LifecycleEnv => {
    if (current === undefined) throw new Error("the lifecycle environment is used before beforeAll started it");
    return current;
  };
  beforeAll(async () => {
    current = await startLifecycleEnv(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => {
    started().sim.reset();
    started().engine.clear();
  });
  const env: LifecycleEnv = {
    get sim() {
      return started().sim;
    },
    get engine() {
      return started().engine;
    },
    get plugin() {
      return started().plugin;
    },
    get providers() {
      return started().providers;
    },
    inputs: (k, props) => started().inputs(k, props),
    urn: (k, n) => started().urn(k, n),
    calls: (op) => started().calls(op),
    totalCalls: () => started().totalCalls(),
    startPlugin: (pluginEnv, pluginOptions) => started().startPlugin(pluginEnv, pluginOptions),
    close: () => started().close(),
  };
  const urn = () => env.urn(kind, name);
  const news = (props: Props) => env.inputs(kind, props);
  const checked = async (props: Props) => {
    const result = await env.plugin.check(urn(), {}, news(props));
    expect(result.failures).toEqual([]);
    return result.inputs;
  };
  return { env, urn, news, checked };
}
