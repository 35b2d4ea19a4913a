/**
 * What the dynamic face adds to a lifecycle: the plugin's `__provider` key never reaches it, results
 * carry the plugin's field names, a gone object reads as an empty id, and every call gets a fresh
 * context from the face. Real lifecycles throughout; the ones that call the API talk to an
 * in-process simulator. The plugin suites in tests/lifecycle/ drive the same adapter over gRPC.
 */
import { closeApiClients } from "../../../../provider/client";
import { dynamicProvider, PROVIDER_KEY, withoutProviderKey } from "../../../../provider/faces/dynamic/adapter";
import { resolveSettings, valuesLayer } from "../../../../provider/configuration/settings";
import type { LifecycleContext } from "../../../../provider/resources/lifecycle/context";

/** Base URL and token as a face would take them from its configuration. */
type PlatformConnection = { baseUrl?: string; token?: string };
const settingsOf = (connection: PlatformConnection) => resolveSettings([valuesLayer("stackConfig", connection)]);
import type { ResourceLifecycle } from "../../../../provider/resources/lifecycle/contract";
import { CreateSession } from "../../../../provider/resources/journal";
import { abTestVariationLifecycle } from "../../../../provider/resources/abTestVariation/lifecycle";
import { bidStrategyLifecycle } from "../../../../provider/resources/bidStrategy/lifecycle";
import { campaignGroupLifecycle } from "../../../../provider/resources/campaignGroup/lifecycle";
import { SEED_ACCOUNTS, SEED_IDS, startSimulator, type RunningSimulator } from "../../../../simulator";

const SHIM_TEXT = "exports.handler = () => ({})";
const DEMO = SEED_ACCOUNTS[0];

/** A face's context whose warn sink records the warnings. */
function recordingContext(connection: PlatformConnection = {}) {
  const warnings: string[] = [];
  const createSession = new CreateSession();
  const context = (): LifecycleContext => ({
    warn: async (message) => void warnings.push(message),
    info: async () => undefined,
    settings: settingsOf(connection),
    createSession,
  });
  return { warnings, context };
}

/** The adapted provider as the plugin holds it: property maps of any shape, as `resourceProvider` returns it. */
const adapt = (lifecycle: ResourceLifecycle<any, any>, context: () => LifecycleContext) => dynamicProvider(lifecycle, context);

const strategy = { name: "Night", pricingModel: "cpc", strategy: "exact", value: 0.5, maxValue: 2 };

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await closeApiClients();
  await sim.close();
});
beforeEach(() => sim.reset());

describe("the __provider key", () => {
  it("copies a map without it and reads an absent map as empty", () => {
    const props = { name: "x", [PROVIDER_KEY]: SHIM_TEXT };
    expect(withoutProviderKey(props)).toEqual({ name: "x" });
    expect(props).toEqual({ name: "x", [PROVIDER_KEY]: SHIM_TEXT });
    expect(withoutProviderKey(undefined)).toEqual({});
  });

  it("never reaches the lifecycle's check, which would refuse it as an unknown property", async () => {
    const { context } = recordingContext();
    const direct = await bidStrategyLifecycle.check({}, { ...strategy, [PROVIDER_KEY]: SHIM_TEXT }, context());
    expect(direct.failures.map((f) => f.property)).toEqual([PROVIDER_KEY]);

    const provider = adapt(bidStrategyLifecycle, context);
    const checked = await provider.check!({}, { ...strategy, value: "0.50", [PROVIDER_KEY]: SHIM_TEXT });
    expect(checked).toEqual({ inputs: strategy, failures: [] });
  });

  it("is not in the state a kept-state read returns", async () => {
    const provider = adapt(bidStrategyLifecycle, recordingContext().context);
    const read = await provider.read!("601", { ...strategy, adoptId: "601", [PROVIDER_KEY]: SHIM_TEXT });
    expect(read).toEqual({ id: "601", props: { ...strategy, adoptId: "601" }, inputs: { ...strategy, adoptId: "601" } });
  });
});

describe("results in the plugin's fields", () => {
  it("passes check failures with their property paths", async () => {
    const provider = adapt(bidStrategyLifecycle, recordingContext().context);
    const { failures } = await provider.check!({}, { ...strategy, strategy: "fastest", [PROVIDER_KEY]: SHIM_TEXT });
    expect(failures).toEqual([{ property: "strategy", reason: expect.stringMatching(/^must be one of "exact"/) }]);
  });

  it("answers diff with changes, replaces and deleteBeforeReplace", async () => {
    const provider = adapt(bidStrategyLifecycle, recordingContext().context);
    const olds = { ...strategy, [PROVIDER_KEY]: SHIM_TEXT };
    expect(await provider.diff!("601", olds, { ...olds, value: 0.75 })).toEqual({
      changes: true,
      replaces: ["value"],
      deleteBeforeReplace: false,
    });
  });

  it("answers create with id and outs, the warnings going to the face's sink", async () => {
    const { warnings, context } = recordingContext();
    const provider = adapt(bidStrategyLifecycle, context);
    const created = await provider.create({ ...strategy, adoptId: "601", [PROVIDER_KEY]: SHIM_TEXT });
    expect(created).toEqual({ id: "601", outs: { ...strategy, adoptId: "601" } });
    expect(warnings).toEqual([expect.stringMatching(/adopted without verification/)]);
  });

  it("answers update with outs", async () => {
    const provider = adapt(abTestVariationLifecycle, recordingContext().context);
    const variation = { abTestId: "301", variationId: "1", name: "A", [PROVIDER_KEY]: SHIM_TEXT };
    // Nothing changed: nothing is sent, and the new inputs are the outputs.
    const { [PROVIDER_KEY]: _text, ...declared } = variation;
    const updated = await provider.update!("301/1", variation, { ...variation });
    expect(updated).toEqual({ outs: declared });
    expect(sim.requests().total).toBe(0);
  });
});

describe("against the simulator", () => {
  const group = { name: "Adapter group", color: "#336699", items: ["5101"] };
  const connection = () => ({ baseUrl: sim.url, token: DEMO.token });

  it("creates and refreshes a group through the context's connection", async () => {
    const provider = adapt(campaignGroupLifecycle, recordingContext(connection()).context);
    const created = await provider.create({ ...group, [PROVIDER_KEY]: SHIM_TEXT });
    // With the create's time, for the read grace (provider/resources/lifecycle/readGrace.ts).
    expect(created.outs).toEqual({ ...group, companyId: DEMO.companyId, __adplatformCreatedAt: expect.any(String) });
    const read = await provider.read!(created.id, { ...created.outs, [PROVIDER_KEY]: SHIM_TEXT });
    expect(read).toMatchObject({ id: created.id, props: { ...group, size: 1 }, inputs: group });
    expect(read.props).not.toHaveProperty(PROVIDER_KEY);
  });

  it("reads a group that is gone as an empty id, which makes the engine drop it", async () => {
    const { warnings, context } = recordingContext(connection());
    const provider = adapt(campaignGroupLifecycle, context);
    const created = await provider.create({ ...group, [PROVIDER_KEY]: SHIM_TEXT });
    expect(sim.deleteObject("campaignGroups", created.id)).toBe(true);
    // Created an hour ago, past the read grace: a group the platform does not show is gone.
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const state = { ...created.outs, __adplatformCreatedAt: anHourAgo, [PROVIDER_KEY]: SHIM_TEXT };
    expect(await provider.read!(created.id, state)).toEqual({ id: "" });
    expect(warnings).toEqual([expect.stringMatching(/no longer exists on the platform/)]);
  });

  it("asks the face for a context on every call, so a connection configured later applies", async () => {
    let current: PlatformConnection = { baseUrl: sim.url, token: "not-a-token-of-the-simulator" };
    let built = 0;
    const provider = adapt(campaignGroupLifecycle, () => {
      built += 1;
      return {
        warn: async () => undefined,
        info: async () => undefined,
        settings: settingsOf(current),
        createSession: new CreateSession(),
      };
    });
    await expect(provider.read!(SEED_IDS.campaignGroups.summer, { ...group })).rejects.toThrow(/401/);
    current = connection();
    const read = await provider.read!(SEED_IDS.campaignGroups.summer, { ...group });
    expect(read.id).toBe(SEED_IDS.campaignGroups.summer);
    expect(built).toBe(2);
  });
});
