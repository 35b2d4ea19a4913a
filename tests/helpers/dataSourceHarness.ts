/**
 * Harness of the data-source suites: a simulator on a loopback port 0 with scaled windows, the
 * shared client of the demo account configured with the same windows before any data source asks
 * for it (the first `getApiClient` call for an account configures it), and the data sources pointed
 * at it through `configureDataSources`.
 */
import * as pulumi from "@pulumi/pulumi";
import { closeApiClients, getApiClient, type RetryOptions } from "../../provider/client";
import { clearReadCache } from "../../provider/dataSources";
import { configureDataSources } from "../../sdk/dataSources";
import { startSimulator, type RunningSimulator, type SimulatorOptions } from "../../simulator";

/** Burst and steady windows of these suites: the spec's 1 s and 60 s scaled by 1/10. */
export const WINDOWS = { burstWindowMs: 100, steadyWindowMs: 6_000 } as const;

/** Tokens of the seeded accounts. */
export const DEMO_TOKEN = "demo-token";
export const SECOND_TOKEN = "second-token";

/** A running simulator the data sources read from. */
interface DataSourceHarness {
  sim: RunningSimulator;
  close(): Promise<void>;
}

/**
 * Starts a simulator, configures the clients of both seeded accounts with the scaled windows (and
 * `retryOptions`, to make retries fast where a suite injects faults) and points the data sources at
 * the demo account. `windows: "spec"` keeps the spec's real windows.
 */
async function startDataSourceHarness(
  options: Partial<SimulatorOptions> & { windows?: "scaled" | "spec"; retryOptions?: Partial<RetryOptions> } = {},
): Promise<DataSourceHarness> {
  const { windows = "scaled", retryOptions = {}, ...simOptions } = options;
  const scaled = windows === "scaled" ? WINDOWS : {};
  const sim = await startSimulator({ ...scaled, ...simOptions });
  for (const token of [DEMO_TOKEN, SECOND_TOKEN]) {
    getApiClient({ baseUrl: sim.url, token, limiterOptions: { ...scaled }, retryOptions });
  }
  configureDataSources({ baseUrl: sim.url, token: DEMO_TOKEN });
  clearReadCache();
  return {
    sim,
    async close() {
      configureDataSources({});
      clearReadCache();
      await closeApiClients();
      await sim.close();
    },
  };
}

/**
 * Registers a `beforeAll` that starts the harness (`startDataSourceHarness` with `options`) and an
 * `afterAll` that closes it, for the suite or `describe` block it is called in. The simulator is
 * `sim` of the result, from the `beforeAll` on.
 */
export function useDataSourceHarness(options: Parameters<typeof startDataSourceHarness>[0] = {}): { readonly sim: RunningSimulator } {
  let harness: DataSourceHarness | undefined;
  beforeAll(async () => {
    harness = await startDataSourceHarness(options);
  });
  afterAll(async () => {
    await harness?.close();
  });
  return {
    get sim() {
      if (harness === undefined) throw new Error("the data-source harness starts in beforeAll: use `sim` in a hook or a test");
      return harness.sim;
    },
  };
}

/** Calls of operation `n` the simulator received from the demo account. */
export function callsOf(sim: RunningSimulator, n: number, account = "demo"): number {
  return sim.requests(account).operations[String(n)]?.count ?? 0;
}

/**
 * The value of an `Output`, or its rejection. Uses the SDK's internal `promise()` because `apply`
 * alone never reports a failure of the callback to the caller. An Output derives `isKnown` and
 * `isSecret` from the same value, so a failed read rejects those too; they are observed here, as
 * the Pulumi runtime observes them in a program (where the failure fails the program).
 */
export function settle<T>(output: pulumi.Output<T>): Promise<T> {
  const internals = output as unknown as { promise(): Promise<T>; isKnown: Promise<boolean>; isSecret: Promise<boolean> };
  void Promise.allSettled([internals.isKnown, internals.isSecret]);
  return internals.promise();
}

/** Whether an `Output` is secret. */
export function isSecret(output: pulumi.Output<unknown>): Promise<boolean> {
  return (output as unknown as { isSecret: Promise<boolean> }).isSecret;
}

/** Mocks that record every resource registered, so a test can read the inputs the engine got. */
export function recordingMocks(): pulumi.runtime.Mocks & { registered: pulumi.runtime.MockResourceArgs[] } {
  const registered: pulumi.runtime.MockResourceArgs[] = [];
  return {
    registered,
    newResource(args) {
      registered.push(args);
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call(args) {
      return args.inputs;
    },
  };
}

/**
 * Independent oracle of the SDK shape of a seeded wire record: renames every key from snake_case to
 * camelCase, except inside the subtrees at `verbatim` (wire paths, `[]` for array elements), which
 * are kept exactly. Deliberately not the schema-driven `toSdk`, so the suites check it rather than
 * repeat it.
 */
export function expectedSdk(value: unknown, verbatim: readonly string[] = [], path = ""): unknown {
  if (verbatim.includes(path)) return structuredClone(value);
  if (Array.isArray(value)) return value.map((v) => expectedSdk(v, verbatim, `${path}[]`));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k.replace(/_+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase()),
        expectedSdk(v, verbatim, path ? `${path}.${k}` : k),
      ]),
    );
  }
  return value;
}

/**
 * Forgets every way a connection setting can be given (explicit settings, stack config, the
 * environment's base URL and token), so a test gives exactly the ones it means.
 */
export function clearConnectionSettings(): void {
  configureDataSources({});
  pulumi.runtime.setAllConfig({});
  delete process.env.ADPLATFORM_BASE_URL;
  delete process.env.ADPLATFORM_TOKEN;
}
