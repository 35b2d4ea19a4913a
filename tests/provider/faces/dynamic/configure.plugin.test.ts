/**
 * Provider configuration without secrets in state: `adplatform:baseUrl` / `adplatform:token` from
 * the stack config (a secret token arrives wrapped and is unwrapped by the plugin), else
 * `ADPLATFORM_BASE_URL` / `ADPLATFORM_TOKEN`; a missing token is an error naming both ways to set
 * it; the token never appears in anything the provider returns.
 */
import { cleanEnv } from "../../../helpers/dynamicProviderHarness";
import { RECOGNISABLE_TOKEN, secretValue, startLifecycleEnv, type LifecycleEnv } from "../../../helpers/lifecycleEnv";

// Child processes (serializer, plugin) start slowly on a loaded machine: generous, never asserted.
jest.setTimeout(60_000);

const group = { name: "Config check", color: "#123456", items: ["5201"] };

async function createGroup(env: LifecycleEnv) {
  const urn = env.urn("CampaignGroup", "cfg");
  const { inputs } = await env.plugin.check(urn, {}, env.inputs("CampaignGroup", group));
  return env.plugin.create(urn, inputs);
}

describe("without a token anywhere", () => {
  let env: LifecycleEnv;
  beforeAll(async () => {
    env = await startLifecycleEnv({ config: (sim) => ({ "adplatform:baseUrl": sim.url }) });
  });
  afterAll(async () => {
    await env.close();
  });

  it("fails the create with an error naming both ways to set it, and sends nothing", async () => {
    const failure = await createGroup(env).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failure?.message).toMatch(/no API token/);
    expect(failure?.message).toContain("pulumi config set --secret adplatform:token <token>");
    expect(failure?.message).toContain("ADPLATFORM_TOKEN");
    expect(failure?.message).not.toMatch(/may have reached/);
    expect(env.totalCalls()).toBe(0);
    expect(env.sim.requests("anonymous").total).toBe(0);
  });

  it("still checks and diffs, which need no credentials", async () => {
    const urn = env.urn("CampaignGroup", "cfg");
    const { failures } = await env.plugin.check(urn, {}, env.inputs("CampaignGroup", group));
    expect(failures).toEqual([]);
  });
});

describe("from the environment", () => {
  let env: LifecycleEnv;
  beforeAll(async () => {
    env = await startLifecycleEnv({
      config: () => ({}),
      env: (sim) => cleanEnv({ ADPLATFORM_BASE_URL: sim.url, ADPLATFORM_TOKEN: RECOGNISABLE_TOKEN }),
    });
  });
  afterAll(async () => {
    await env.close();
  });

  it("uses ADPLATFORM_BASE_URL and ADPLATFORM_TOKEN when the stack config has neither", async () => {
    const created = await createGroup(env);
    expect(env.sim.state().campaignGroups.map((g) => g.id)).toContain(created.id);
  });
});

describe("from the stack config", () => {
  let env: LifecycleEnv;
  beforeAll(async () => {
    env = await startLifecycleEnv({
      // The stack config wins over a wrong token in the environment.
      env: () => cleanEnv({ ADPLATFORM_BASE_URL: "http://127.0.0.1:9", ADPLATFORM_TOKEN: "wrong-token" }),
      config: (sim) => ({ "adplatform:baseUrl": sim.url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) }),
    });
  });
  afterAll(async () => {
    await env.close();
  });

  it("takes the secret token and base URL from the config over the environment", async () => {
    const created = await createGroup(env);
    expect(env.sim.state().campaignGroups.map((g) => g.id)).toContain(created.id);
  });

  it("never returns the token from any operation, nor prints it", async () => {
    const urn = env.urn("CampaignGroup", "cfg");
    const checked = await env.plugin.check(urn, {}, env.inputs("CampaignGroup", group));
    const created = await env.plugin.create(urn, checked.inputs);
    const diffed = await env.plugin.diff(created.id, urn, created.properties, checked.inputs);
    const read = await env.plugin.read(created.id, urn, created.properties);
    const everything = JSON.stringify({ checked, created, diffed, read, logs: env.engine.logs });
    expect(everything).not.toContain(RECOGNISABLE_TOKEN);
    expect(env.plugin.stderr()).not.toContain(RECOGNISABLE_TOKEN);
  });
});
