/**
 * The create journal through the real dynamic-provider plugin (provider/resources/journal): a create whose answer the engine never recorded is taken over without a POST, one
 * whose answer never arrived is reported, and the hazards of a journal keyed by URN each keep their
 * meaning: a replacement, destroy then up, two stacks of one program, two plugin processes at once.
 */
import * as fs from "node:fs";
import { CreateJournal, ambiguousRecordId, leftBehindPlaces, readLeftBehind } from "../../../../provider/resources/journal/store";
import { RECOGNISABLE_TOKEN, lifecycleSuite, secretValue } from "../../../helpers/lifecycleEnv";
import { cleanEnv, type Props } from "../../../helpers/dynamicProviderHarness";

// Child processes (serializer, plugin) start slowly on a loaded machine: generous, never asserted.
jest.setTimeout(90_000);

const OP_CREATE_STRATEGY = 3;
const OP_CREATE_GROUP = 2;
const { env } = lifecycleSuite("BidStrategy", "night");
const journal = new CreateJournal(process.env.ADPLATFORM_JOURNAL_DIR!);

const declared = { name: "Night bids", strategy: "percent_add", value: "12.50", maxValue: 3 };
const stackUrn = (stack: string, name = "night") => `urn:pulumi:${stack}::lifecycle::pulumi-nodejs:dynamic/adplatform:BidStrategy::${name}`;
const URN = stackUrn("dev");

/** `Check` then `Create` of a strategy as the engine sends them, with the SDK's hidden identity. */
async function createStrategy(urn: string, props: Props = declared, plugin = env.plugin) {
  const { inputs, failures } = await plugin.check(urn, {}, env.inputs("BidStrategy", { ...props, __adplatformUrn: urn }));
  expect(failures).toEqual([]);
  return plugin.create(urn, inputs);
}

/** A second plugin process of the same program, configured as the engine configures each. */
async function configuredPlugin(config: Record<string, unknown> = {}) {
  const plugin = await env.startPlugin();
  await plugin.configure({ "adplatform:baseUrl": env.sim.url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN), ...config });
  return plugin;
}

const posts = () => env.calls(OP_CREATE_STRATEGY).length;

/**
 * Polls until `ready` holds. No duration is asserted: the limit only ends a test that went wrong
 * instead of leaving the loop running after jest's timeout.
 */
async function until(ready: () => boolean, what = "the condition"): Promise<void> {
  const giveUpAt = Date.now() + 80_000;
  while (!ready()) {
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Requests the simulator holds at its gate (`hold`). */
const held = () => (env.sim.setFaults({}) as { waiting?: number }).waiting ?? 0;

beforeEach(() => {
  fs.rmSync(journal.dir, { recursive: true, force: true });
});

it("keeps the identity out of the lifecycle but in Check's answer and the outputs, so it reaches Create and Delete", async () => {
  const { inputs } = await env.plugin.check(URN, {}, env.inputs("BidStrategy", { ...declared, __adplatformUrn: URN }));
  expect(inputs.__adplatformUrn).toBe(URN);
  const created = await env.plugin.create(URN, inputs);
  // The outputs (the state) hold it too: the plugin hands Delete only the outputs.
  expect(created.properties.__adplatformUrn).toBe(URN);
  expect(journal.get(URN)).toMatchObject({ state: "answered", id: created.id, kind: "BidStrategy" });
});

it("takes over the object of a create the engine never recorded, without a second POST", async () => {
  const first = await createStrategy(URN);
  // The engine was killed before it recorded `first.id`; the next update creates the resource again.
  env.engine.clear();
  const again = await createStrategy(URN);
  expect(again.id).toBe(first.id);
  expect(posts()).toBe(1);
  expect(env.engine.warnings()).toEqual([
    expect.stringContaining(`took over bid strategy ${first.id}, which an interrupted update created`),
  ]);
});

it("returns a taken-over group's API outputs too", async () => {
  const urn = "urn:pulumi:dev::lifecycle::pulumi-nodejs:dynamic/adplatform:CampaignGroup::spring";
  const props = env.inputs("CampaignGroup", { name: "Spring", color: "#22aa44", items: ["5101"], __adplatformUrn: urn });
  const { inputs } = await env.plugin.check(urn, {}, props);
  const first = await env.plugin.create(urn, inputs);
  const again = await env.plugin.create(urn, inputs);
  expect(again).toEqual(first);
  expect(first.properties.companyId).toBe("7001");
  expect(env.calls(OP_CREATE_GROUP)).toHaveLength(1);
});

it("creates a new object for a replacement with equal inputs once the engine has named the old id", async () => {
  const first = await createStrategy(URN);
  // Any call naming the id (here the next update's Diff) shows the engine recorded it.
  const { inputs } = await env.plugin.check(URN, {}, env.inputs("BidStrategy", { ...declared, __adplatformUrn: URN }));
  await env.plugin.diff(first.id, URN, first.properties, inputs);
  expect(journal.get(URN)).toBeUndefined();
  const replacement = await createStrategy(URN);
  expect(replacement.id).not.toBe(first.id);
  expect(posts()).toBe(2);
});

it("diffs a stack written before the identity existed as no change, and a new identity never replaces", async () => {
  const created = await createStrategy(URN);
  const state = created.properties;
  const withIdentity = env.inputs("BidStrategy", { ...declared, __adplatformUrn: URN });
  expect(await env.plugin.diff(created.id, URN, state, withIdentity)).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  const moved = env.inputs("BidStrategy", { ...declared, __adplatformUrn: stackUrn("dev", "renamed") });
  expect(await env.plugin.diff(created.id, URN, { ...state, __adplatformUrn: URN }, moved)).toMatchObject({ changes: "none" });
});

it("creates anew after destroy then up: Delete names the id, so the entry goes", async () => {
  const first = await createStrategy(URN);
  // A dynamic Delete carries no identity: the entry is found by kind, account and id.
  await env.plugin.delete(first.id, URN, first.properties);
  expect(journal.get(URN)).toBeUndefined();
  const second = await createStrategy(URN);
  expect(second.id).not.toBe(first.id);
  expect(posts()).toBe(2);
});

it("Read (refresh) of the id removes the entry as well", async () => {
  const first = await createStrategy(URN);
  await env.plugin.read(first.id, URN, first.properties);
  expect(journal.get(URN)).toBeUndefined();
});

it("keeps two stacks of one program directory apart: equal inputs, different URNs, two objects", async () => {
  const dev = await createStrategy(stackUrn("dev"));
  const prod = await createStrategy(stackUrn("prod"));
  expect(prod.id).not.toBe(dev.id);
  expect(posts()).toBe(2);
  expect(env.engine.warnings()).toEqual([]);
});

it("creates anew, with a warning naming the orphan, when the inputs changed since the interrupted create", async () => {
  const first = await createStrategy(URN);
  const changed = await createStrategy(URN, { ...declared, maxValue: 4 });
  expect(changed.id).not.toBe(first.id);
  expect(posts()).toBe(2);
  expect(env.engine.warnings()).toEqual([
    expect.stringContaining(`an interrupted update created bid strategy ${first.id} for this resource`),
  ]);
  expect(journal.get(URN)).toMatchObject({ id: changed.id });
});

it("journals nothing without an identity (the resource of an older SDK or a test): the POST as before", async () => {
  const { inputs } = await env.plugin.check(URN, {}, env.inputs("BidStrategy", declared));
  await env.plugin.create(URN, inputs);
  await env.plugin.create(URN, inputs);
  expect(posts()).toBe(2);
  expect(journal.entries()).toEqual([]);
});

it("keeps an ambiguous create as a record: a retry sends nothing until createAgain names the record, then exactly one POST", async () => {
  env.sim.setFaults({ rules: [{ kind: "dropAfter", op: OP_CREATE_STRATEGY, count: 1 }] });
  await expect(createStrategy(URN)).rejects.toThrow(
    /may have reached the platform.*Look on the platform for a bid strategy named "Night bids"/s,
  );
  const record = journal.get(URN);
  expect(record).toMatchObject({ state: "ambiguous", name: "Night bids" });
  const recordId = ambiguousRecordId(record!);
  // An error hook's retry, or the next run: refused, nothing sent.
  await expect(createStrategy(URN)).rejects.toThrow(new RegExp(`not sent:.*ambiguous record ${recordId}.*createAgain ${recordId}`, "s"));
  expect(posts()).toBe(1);
  // The person looked and found nothing: createAgain names the record, and one create follows.
  const resolved = await configuredPlugin({ "adplatform:createAgain": `amb-000000000000, ${recordId}` });
  const second = await createStrategy(URN, declared, resolved);
  expect(posts()).toBe(2);
  expect(journal.get(URN)).toMatchObject({ state: "answered", id: second.id });
  // What the first create may have made stays on the platform beside it: on the left-behind list.
  const reading = await readLeftBehind(leftBehindPlaces({ journalDir: journal.dir }));
  expect("objects" in reading && reading.objects).toEqual([
    expect.objectContaining({
      kind: "BidStrategy",
      name: "Night bids",
      change: "createdAgain",
      record: recordId,
      urn: URN,
      leftAt: record!.sentAt,
    }),
  ]);
  expect("objects" in reading && reading.objects[0]).not.toHaveProperty("id");
});

it("announces at Check how a record is resolved, and lists the stack's other records once", async () => {
  env.sim.setFaults({ rules: [{ kind: "dropAfter", op: OP_CREATE_STRATEGY, count: 1 }] });
  await expect(createStrategy(stackUrn("dev", "other"))).rejects.toThrow(/may have reached the platform/);
  const plugin = await configuredPlugin();
  await plugin.check(URN, {}, env.inputs("BidStrategy", { ...declared, __adplatformUrn: URN }));
  await plugin.check(stackUrn("dev", "third"), {}, env.inputs("BidStrategy", { ...declared, __adplatformUrn: stackUrn("dev", "third") }));
  const listed = env.engine.warnings().filter((warning) => warning.includes("ambiguous record"));
  expect(listed).toEqual([expect.stringMatching(/BidStrategy "other": ambiguous record amb-[0-9a-f]{12}.*named "Night bids"/s)]);
  // Another stack's record is not this stack's business.
  env.engine.clear();
  const prod = await configuredPlugin();
  await prod.check(stackUrn("prod"), {}, env.inputs("BidStrategy", { ...declared, __adplatformUrn: stackUrn("prod") }));
  expect(env.engine.warnings().filter((warning) => warning.includes("ambiguous record"))).toEqual([]);
});

it("ends `answered` with one object when the platform first refused the create with a 429", async () => {
  env.sim.setFaults({ rules: [{ kind: "rateLimit", op: OP_CREATE_STRATEGY, count: 1, retryAfter: 0 }] });
  const created = await createStrategy(URN);
  expect(journal.get(URN)).toMatchObject({ state: "answered", id: created.id });
  expect(env.sim.state().bidStrategies.filter((s) => s.name === "Night bids")).toHaveLength(1);
});

it("waits for another plugin process still sending the same create, then takes its object over", async () => {
  const other = await configuredPlugin();
  env.sim.setFaults({ hold: true });
  // The plugin of a killed update, its request in flight.
  const orphan = createStrategy(URN, declared, other);
  await until(() => journal.get(URN)?.state === "sent" && held() === 1, "the POST held by the simulator");
  // The next update's plugin: its create must neither POST again nor report an unknown outcome.
  const next = createStrategy(URN);
  env.sim.setFaults({ hold: false });
  const [a, b] = await Promise.all([orphan, next]);
  expect(b.id).toBe(a.id);
  expect(posts()).toBe(1);
  expect(env.engine.warnings()).toEqual([expect.stringContaining(`took over bid strategy ${a.id}`)]);
});

it("keeps a create whose process died before the answer as a record, and adoptId resolves it without a POST", async () => {
  const doomed = await configuredPlugin();
  env.sim.setFaults({ hold: true });
  const lost = createStrategy(URN, declared, doomed).catch((error: unknown) => error);
  await until(() => journal.get(URN)?.state === "sent" && held() === 1, "the POST held by the simulator");
  await doomed.close();
  await lost;
  // The platform may have applied it (here it does, once released): the outcome is unknown.
  env.sim.setFaults({ hold: false });
  await expect(createStrategy(URN)).rejects.toThrow(
    /Night bids.*may have reached the platform.*process ended before the platform's answer arrived.*Look on the platform for a bid strategy named "Night bids"/s,
  );
  await until(() => posts() === 1); // the held request, logged once the simulator settled it
  // Every later run is refused the same way until someone resolves it.
  await expect(createStrategy(URN)).rejects.toThrow(/not sent:/);
  expect(journal.get(URN)?.state).toBe("ambiguous");
  // The person found the object: adoptId takes it, and nothing is sent.
  const made = env.sim.state().bidStrategies.find((s) => s.name === "Night bids")!;
  const adopted = await createStrategy(URN, { ...declared, adoptId: String(made.id) });
  expect(adopted.id).toBe(String(made.id));
  expect(posts()).toBe(1);
  expect(journal.get(URN)).toBeUndefined();
});

it("sends nothing when the journal cannot be written, and says why", async () => {
  const notADirectory = `${journal.dir}-file`;
  fs.writeFileSync(notADirectory, "");
  try {
    const plugin = await env.startPlugin(cleanEnv({ ADPLATFORM_JOURNAL_DIR: notADirectory }));
    await plugin.configure({ "adplatform:baseUrl": env.sim.url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) });
    await expect(createStrategy(URN, declared, plugin)).rejects.toThrow(/Night bids.*(ENOTDIR|EEXIST|not a directory)/s);
    expect(posts()).toBe(0);
  } finally {
    fs.rmSync(notADirectory, { force: true });
  }
});

describe("an interrupted replacement (the engine holds the old object, the journal the new one)", () => {
  const OLD_ID = "424242";

  it("is taken over by the next update's replacement, which Diff leaves to Create", async () => {
    const replacement = await createStrategy(URN);
    // The state still holds the old object, with the values before the change.
    const olds = { ...replacement.properties, maxValue: 4 };
    const { inputs } = await env.plugin.check(URN, olds, env.inputs("BidStrategy", { ...declared, __adplatformUrn: URN }));
    expect(await env.plugin.diff(OLD_ID, URN, olds, inputs)).toMatchObject({ changes: "some", replaces: ["maxValue"] });
    env.engine.clear();
    expect((await env.plugin.create(URN, inputs)).id).toBe(replacement.id);
    expect(env.engine.warnings()).toEqual([expect.stringContaining(`took over bid strategy ${replacement.id}`)]);
  });

  it("is reported as outside the stack when the next update replaces nothing", async () => {
    const replacement = await createStrategy(URN);
    const { inputs } = await env.plugin.check(URN, {}, env.inputs("BidStrategy", { ...declared, __adplatformUrn: URN }));
    expect(await env.plugin.diff(OLD_ID, URN, replacement.properties, inputs)).toMatchObject({ changes: "none" });
    expect(env.engine.warnings()).toEqual([
      expect.stringContaining(`an interrupted update created bid strategy ${replacement.id} to replace it`),
    ]);
    expect(journal.get(URN)).toBeUndefined();
  });
});
