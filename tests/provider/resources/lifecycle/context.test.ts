/**
 * The lifecycle core without any face: it loads without `@pulumi/pulumi`, sends every warning to the
 * context's sink and every request with the context's connection. The per-kind suites drive the
 * same code through the dynamic face and the real plugin over gRPC.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { closeApiClients } from "../../../../provider/client";
import { resolveSettings, valuesLayer } from "../../../../provider/configuration/settings";
import type { LifecycleContext } from "../../../../provider/resources/lifecycle/context";
import { CreateSession } from "../../../../provider/resources/journal";
import { bidModifierLifecycle } from "../../../../provider/resources/bidModifier/lifecycle";
import { SEED_ACCOUNTS, SEED_IDS, startSimulator, type RunningSimulator } from "../../../../simulator";
import { REPO_ROOT } from "../../../helpers/dynamicProviderHarness";

const [DEMO, SECOND] = SEED_ACCOUNTS;
const ID = SEED_IDS.bidModifiers.countries;
const URN = "urn:pulumi:test::core::adplatform:index:BidModifier::m";

/** A context as a face would build it, with a warn sink that records. */
function recordingContext(connection: { baseUrl?: string; token?: string } = {}) {
  const warnings: string[] = [];
  const settings = resolveSettings([valuesLayer("explicit", connection)]);
  const ctx: LifecycleContext = {
    warn: async (message) => void warnings.push(message),
    info: async () => undefined,
    settings,
    urn: URN,
    createSession: new CreateSession(),
  };
  return { warnings, ctx };
}

it("loads the lifecycle code of every kind without loading @pulumi/pulumi", () => {
  // A fresh process over the built package (npm test builds first): jest's own module registry
  // would not show what a plain `require` loads.
  const entry = path.join(REPO_ROOT, "bin", "provider", "resources", "index.js");
  const script =
    `const r = require(${JSON.stringify(entry)}); for (const k of r.RESOURCE_KINDS) r.resourceLifecycle(k);` +
    `process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((m) => /@pulumi[\\\\/]pulumi/.test(m))));`;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(JSON.parse(run.stdout)).toEqual([]);
});

describe("warnings", () => {
  it("go to the context's sink from check, diff and delete", async () => {
    // An account, so the delete can list the object it leaves (a hash of it names the list's records).
    const { warnings, ctx } = recordingContext({ baseUrl: "http://127.0.0.1:9", token: "t" });
    const { inputs } = await bidModifierLifecycle.check({}, { bidModifierId: ID, name: "A", tags: ["t1"] }, ctx);
    const { name: _removed, ...withoutName } = inputs;
    await bidModifierLifecycle.diff(ID, inputs, { ...withoutName, bidModifierId: ID }, ctx);
    await bidModifierLifecycle.delete(ID, inputs, ctx);
    expect(warnings).toEqual([
      expect.stringMatching(/`tags` is deprecated by the API; use `containers` instead/),
      expect.stringMatching(/`name` was removed from the program, but the API cannot unset a field/),
      expect.stringMatching(/BidModifier "501": the API cannot delete bid modifiers.*Listed by `adplatform-left-behind`/),
    ]);
  });
});

describe("requests", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await closeApiClients();
    await sim.close();
  });

  it("go to the account of the context's connection, call by call", async () => {
    const { inputs } = await bidModifierLifecycle.check({}, { bidModifierId: ID, name: "Per call" }, recordingContext().ctx);
    for (const account of [DEMO, SECOND, DEMO]) {
      await bidModifierLifecycle.create(inputs, recordingContext({ baseUrl: sim.url, token: account.token }).ctx);
    }
    expect(sim.requests(DEMO.account).operations["1"]?.count).toBe(2);
    expect(sim.requests(SECOND.account).operations["1"]?.count).toBe(1);
  });

  it("fail with the client's error, naming the resource, when the platform refuses the token", async () => {
    const { ctx } = recordingContext({ baseUrl: sim.url, token: "not-a-token-of-the-simulator" });
    await expect(bidModifierLifecycle.create({ bidModifierId: ID, name: "x" }, ctx)).rejects.toThrow(/^BidModifier "501": .*401/);
  });
});
