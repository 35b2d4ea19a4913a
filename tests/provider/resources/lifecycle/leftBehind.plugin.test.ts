/**
 * Objects a change leaves on the platform (provider/resources/lifecycle/leftBehind.ts), through the
 * real dynamic-provider plugin against the simulator: a replacing diff names the old object (kind,
 * id, name, why) with no request; with `leftBehind: refuse` it fails instead, unless the resource's
 * `approveLeavingId` names that object, and the approval itself never causes a replace.
 */
import { LeftBehindRefusedError } from "../../../../provider/errors";
import { RECOGNISABLE_TOKEN, lifecycleSuite, secretValue } from "../../../helpers/lifecycleEnv";
import type { Props } from "../../../helpers/dynamicProviderHarness";

// Child processes (serializer, plugin) start slowly on a loaded machine: generous, never asserted.
jest.setTimeout(90_000);

const { env, urn, news } = lifecycleSuite("BidStrategy", "night");
const declared = { name: "Night bids", strategy: "percent_add", value: "12.50", maxValue: 3 };

/** A second plugin process configured with `config` on top of the connection. */
async function configuredPlugin(config: Record<string, unknown>) {
  const plugin = await env.startPlugin();
  await plugin.configure({ "adplatform:baseUrl": env.sim.url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN), ...config });
  return plugin;
}

/** The state of strategy 601 as checked inputs (the outputs hold them). */
const stateOf = async (props: Props = declared) => (await env.plugin.check(urn(), {}, news(props))).inputs;

it("warns in a replacing diff which strategy stays on the platform, and why, without a request", async () => {
  const state = await stateOf();
  const diff = await env.plugin.diff("601", urn(), state, news({ ...declared, value: 13 }));
  expect(diff.replaces).toEqual(["value"]);
  expect(env.engine.warnings()).toEqual([
    'BidStrategy "Night bids" (id 601): this change replaces it (value cannot be updated) and the API cannot delete bid ' +
      'strategies, so BidStrategy 601 "Night bids" stays on the platform; Pulumi only removes it from the stack\'s state.',
  ]);
  expect(env.totalCalls()).toBe(0);
});

it("says nothing when the diff does not replace", async () => {
  const state = await stateOf();
  await env.plugin.diff("601", urn(), state, news({ ...declared, value: "12.5" }));
  expect(env.engine.warnings()).toEqual([]);
});

it("names a campaign group's id and name too", async () => {
  const group = { name: "Autumn", color: "#aabbcc", items: [] };
  const state = (await env.plugin.check(env.urn("CampaignGroup", "g"), {}, env.inputs("CampaignGroup", group))).inputs;
  await env.plugin.diff("500", env.urn("CampaignGroup", "g"), state, env.inputs("CampaignGroup", { ...group, color: "#ffffff" }));
  expect(env.engine.warnings()).toEqual([
    expect.stringMatching(/^CampaignGroup "Autumn" \(id 500\): .*so CampaignGroup 500 "Autumn" stays on the platform/),
  ]);
});

describe("leftBehind: refuse", () => {
  it("fails the replacing diff naming the object, with nothing sent", async () => {
    const strict = await configuredPlugin({ "adplatform:leftBehind": "refuse" });
    const state = await stateOf();
    const failure = await strict.diff("601", urn(), state, news({ ...declared, value: 13 })).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/BidStrategy 601 "Night bids" stays on the platform/);
    expect(failure?.message).toMatch(/adplatform:leftBehind is "refuse"/);
    expect(failure?.message).toMatch(/set approveLeavingId: "601"/);
    expect(env.totalCalls()).toBe(0);
  });

  it("lets the resource that approves leaving that very object through, and the approval alone changes nothing", async () => {
    const strict = await configuredPlugin({ "adplatform:leftBehind": "refuse" });
    const state = await stateOf();
    const approved = await strict.diff("601", urn(), state, news({ ...declared, value: 13, approveLeavingId: "601" }));
    expect(approved.replaces).toEqual(["value"]);
    expect(env.engine.warnings()).toEqual([expect.stringMatching(/stays on the platform.*Approved by approveLeavingId\.$/)]);

    const alone = await strict.diff("601", urn(), state, news({ ...declared, approveLeavingId: "601" }));
    expect(alone).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

    const other = await strict.diff("601", urn(), state, news({ ...declared, value: 13, approveLeavingId: "599" })).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(other?.message).toMatch(/approveLeavingId names 599, not 601/);
    expect(env.totalCalls()).toBe(0);
  });

  it("keeps a plain update of an in-place kind going", async () => {
    const strict = await configuredPlugin({ "adplatform:leftBehind": "refuse" });
    const group = { name: "Autumn", color: "#aabbcc", items: [] };
    const state = (await strict.check(env.urn("CampaignGroup", "g"), {}, env.inputs("CampaignGroup", group))).inputs;
    const same = await strict.diff(
      "500",
      env.urn("CampaignGroup", "g"),
      state,
      env.inputs("CampaignGroup", { ...group, color: "#AABBCC" }),
    );
    expect(same.changes).toBe("none");
  });
});

it("refuses an unknown mode at check, naming the setting", async () => {
  const odd = await configuredPlugin({ "adplatform:leftBehind": "ignore" });
  const { failures } = await odd.check(urn(), {}, news(declared));
  expect(failures).toEqual([{ property: "", reason: 'adplatform:leftBehind must be one of "warn", "refuse", got "ignore"' }]);
});

it("is an AdPlatformError with a stable code", () => {
  const error = new LeftBehindRefusedError({ reason: "r" }, [{ kind: "BidStrategy", id: "601", name: "n" }]);
  expect(error.code).toBe("ADP_ERR_LEFT_BEHIND_REFUSED");
  expect(error.objects).toEqual([{ kind: "BidStrategy", id: "601", name: "n" }]);
});
