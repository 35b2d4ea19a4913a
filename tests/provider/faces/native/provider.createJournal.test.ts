/**
 * The create journal through the native plugin over gRPC (provider/resources/journal): its programs never acknowledge a create, so the plugin learns from the engine's calls
 * when the state holds what a create journaled. A `Check` with old inputs shows that a first
 * create's object is held, a delete of the old id ends a replacement, and a take-over after a kill
 * of a first create (whose next `Check` has no old inputs) still happens.
 */
import { CreateJournal } from "../../../../provider/resources/journal/store";
import type { Props } from "../../../helpers/dynamicProviderHarness";
import { nativeUrn, useNativePlugin } from "../../../helpers/nativePluginHarness";

jest.setTimeout(60_000);

const OP_CREATE_GROUP = 2;
const journal = new CreateJournal(process.env.ADPLATFORM_JOURNAL_DIR!);

const native = useNativePlugin();

const declared = { name: "Spring", color: "#22aa44", items: ["5101"] };
const posts = () => native.sim.requests().operations[String(OP_CREATE_GROUP)]?.calls.length ?? 0;
const warnings = () => native.engine.logs.filter((l) => l.severity === "warning").map((l) => l.message);

/** `Check` (with the state's old inputs, or none) then `Create`, as the engine sends them. */
async function checkAndCreate(urn: string, olds: Props = {}) {
  const { inputs, failures } = await native.plugin.check(urn, olds, declared);
  expect(failures).toEqual([]);
  return native.plugin.create(urn, inputs);
}

it("creates a new object for a replacement with equal inputs once a Check carried the state's old inputs", async () => {
  const urn = nativeUrn("CampaignGroup", "replaced");
  const first = await checkAndCreate(urn);
  expect(journal.get(urn)).toMatchObject({ state: "answered", id: first.id, replacing: false });
  // The next update: the state holds the group, so the engine's Check carries its old inputs. A
  // replacement that calls no Diff (a provider change) creates right after it.
  const second = await checkAndCreate(urn, declared);
  expect(second.id).not.toBe(first.id);
  expect(posts()).toBe(2);
  expect(journal.get(urn)).toMatchObject({ id: second.id, replacing: true });
  // create-before-delete ends with the old object's delete, after the engine recorded the new one.
  await native.plugin.delete(first.id, urn, first.properties);
  expect(journal.get(urn)).toBeUndefined();
});

it("still takes over a first create's object after a kill: the next Check has no old inputs", async () => {
  const urn = nativeUrn("CampaignGroup", "killed");
  const first = await checkAndCreate(urn);
  // The engine was killed before recording it; the state holds no resource, so no old inputs.
  const again = await checkAndCreate(urn);
  expect(again).toEqual(first);
  expect(posts()).toBe(1);
  expect(warnings()).toEqual([expect.stringContaining(`took over campaign group ${first.id}`)]);
});

it("still takes over an interrupted replacement's object in the next update that makes the change", async () => {
  const urn = nativeUrn("CampaignGroup", "interrupted");
  const first = await checkAndCreate(urn);
  const state = { ...declared, color: "#000000" };
  // The state holds the first object with other inputs; the replacement's answer was never recorded.
  const replacement = await checkAndCreate(urn, state);
  const again = await checkAndCreate(urn, state);
  expect(again.id).toBe(replacement.id);
  expect(again.id).not.toBe(first.id);
  expect(posts()).toBe(2);
});

it("keeps the held object when a --target-replace took it over, and the next replacement creates anew", async () => {
  const urn = nativeUrn("CampaignGroup", "targeted");
  const first = await checkAndCreate(urn);
  // `--target-replace`: the engine checks without old inputs, creates, then deletes the old id.
  const taken = await checkAndCreate(urn);
  expect(taken.id).toBe(first.id);
  native.engine.clear();
  await native.plugin.delete(first.id, urn, first.properties);
  expect(warnings()).toEqual([expect.stringContaining(`CampaignGroup ${first.id}: nothing was replaced`)]);
  expect(journal.get(urn)).toBeUndefined();
  // Run again: the entry is gone, so the replacement POSTs.
  const replaced = await checkAndCreate(urn);
  expect(replaced.id).not.toBe(first.id);
  expect(posts()).toBe(2);
  await native.plugin.delete(first.id, urn, first.properties);
  expect(journal.get(urn)).toBeUndefined();
});
