/**
 * CampaignGroup through the real dynamic-provider plugin against the simulator: POST op 2 on
 * create, GET op 19 on refresh (items kept, size checked, a missing group leaves the state), every
 * change a replace, no delete, and adoption by `adoptId` verified with GET op 19.
 */
import { CAMPAIGN_GROUP } from "../../../../provider/resources/campaignGroup/definition";
import { subjectOf } from "../../../../provider/resources/lifecycle/defaults";
import { SEED_IDS } from "../../../../simulator";
import { lifecycleSuite, RECOGNISABLE_TOKEN } from "../../../helpers/lifecycleEnv";

// Child processes (serializer, plugin) start slowly on a loaded machine: generous, never asserted.
jest.setTimeout(60_000);

const OP_CREATE = 2;
const OP_VIEW = 19;
const { env, urn, news, checked } = lifecycleSuite("CampaignGroup", "spring");
const declared = { name: "Spring sale", color: "#22AA44", items: ["5101", "5102"] };

it("refuses a colour that is not #rrggbb and a numeric campaign id, without calling the API", async () => {
  const { failures } = await env.plugin.check(urn(), {}, news({ name: "G", color: "green", items: [5101] }));
  expect(failures).toEqual([
    { property: "color", reason: "color must be a hex colour #rrggbb" },
    { property: "items[0]", reason: expect.stringMatching(/must be a string/) },
  ]);
  expect(env.totalCalls()).toBe(0);
});

it("creates groups with no campaigns or a repeated id, which the spec does not rule out; size counts an id once", async () => {
  for (const items of [[], ["5101", "5101", " 5102"]]) {
    const created = await env.plugin.create(urn(), await checked({ name: "", color: "#22AA44", items }));
    expect(env.sim.state().campaignGroups.find((g) => g.id === created.id)).toMatchObject({ items, size: new Set(items).size });
    await env.plugin.read(created.id, urn(), created.properties);
  }
  expect(env.calls(OP_CREATE).map((c) => c.status)).toEqual([201, 201]);
  expect(env.engine.warnings()).toEqual([]);
});

it("creates with one POST and returns the company id; nothing else is called", async () => {
  const created = await env.plugin.create(urn(), await checked(declared));
  // The create's time, for the read grace (provider/resources/lifecycle/readGrace.ts).
  expect(created.properties).toEqual({ ...news(declared), companyId: "7001", __adplatformCreatedAt: expect.any(String) });
  expect(JSON.stringify(created)).not.toContain(RECOGNISABLE_TOKEN);
  expect(env.calls(OP_CREATE).map((c) => c.body)).toEqual([{ name: "Spring sale", color: "#22AA44", items: ["5101", "5102"] }]);
  expect(env.calls(OP_VIEW)).toHaveLength(0);
  expect(env.sim.state().campaignGroups.find((g) => g.id === created.id)).toMatchObject({
    name: "Spring sale",
    color: "#22AA44",
    items: ["5101", "5102"],
    size: 2,
  });
});

it("refreshes with GET op 19, keeps the last known items and returns inputs for later diffs", async () => {
  const created = await env.plugin.create(urn(), await checked(declared));
  const read = await env.plugin.read(created.id, urn(), created.properties);
  expect(read.id).toBe(created.id);
  expect(read.properties).toMatchObject({
    ...declared,
    companyId: "7001",
    size: 2,
    createTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    updateTime: expect.any(String),
  });
  expect(read.inputs).toEqual(news(declared));
  expect(env.calls(OP_VIEW).map((c) => c.path)).toEqual([`/v2/adex/groups/${created.id}`]);
  expect(env.engine.warnings()).toEqual([]);
});

it("warns on refresh when the platform's size and the declared items disagree", async () => {
  const state = { ...(await checked({ name: "Summer sale", color: "#ff8800", items: ["5001"] })), __provider: "x" };
  const read = await env.plugin.read(SEED_IDS.campaignGroups.summer, urn(), news(state));
  expect(read.properties).toMatchObject({ size: 3, items: ["5001"] });
  expect(env.engine.warnings()).toEqual([
    expect.stringMatching(/the platform counts 3 campaign\(s\) in the group but the program lists 1/),
  ]);
});

it("drops a group that no longer exists from the state on refresh, once the read grace after its create is over", async () => {
  const created = await env.plugin.create(urn(), await checked(declared));
  expect(env.sim.deleteObject("campaignGroups", created.id)).toBe(true);
  // Created an hour ago: a missing group is gone (within the grace it would be read again and kept).
  const anHourAgo = new Date(Date.parse(created.properties.__adplatformCreatedAt as string) - 3_600_000).toISOString();
  const read = await env.plugin.read(created.id, urn(), { ...created.properties, __adplatformCreatedAt: anHourAgo });
  expect(read.id).toBe("");
  expect(env.engine.warnings()).toEqual([expect.stringMatching(/no longer exists on the platform/)]);
});

it("diffs: reordered items and another colour spelling are no change; a rename replaces", async () => {
  const created = await env.plugin.create(urn(), await checked(declared));
  const reordered = news({ ...declared, color: "#22aa44", items: ["5102", "5101"] });
  expect(await env.plugin.diff(created.id, urn(), created.properties, reordered)).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(await env.plugin.diff(created.id, urn(), created.properties, news({ ...declared, name: "Spring" }))).toEqual({
    changes: "some",
    replaces: ["name"],
    deleteBeforeReplace: false,
  });
});

it("deletes without a call and warns that the group stays on the platform", async () => {
  const created = await env.plugin.create(urn(), await checked(declared));
  const before = env.totalCalls();
  await env.plugin.delete(created.id, urn(), created.properties);
  expect(env.totalCalls()).toBe(before);
  expect(env.engine.warnings()).toEqual([
    expect.stringMatching(new RegExp(`cannot delete campaign groups, so group ${created.id} stays on the platform`)),
  ]);
  expect(env.sim.state().campaignGroups.map((g) => g.id)).toContain(created.id);
});

it("names a group known by id alone (a read of an import) by its id, and one with a name by both", () => {
  const subject = subjectOf(CAMPAIGN_GROUP);
  expect(subject({}, "701")).toBe("CampaignGroup 701");
  expect(subject({ name: "Spring sale" }, "701")).toBe('CampaignGroup "Spring sale" (id 701)');
  expect(subject({ name: "Spring sale" })).toBe('CampaignGroup "Spring sale"');
});

it("reports a create whose success body was unreadable as ambiguous, with how to adopt the group", async () => {
  env.sim.setFaults({ rules: [{ kind: "malformed", op: OP_CREATE, count: 1 }] });
  const failure = await env.plugin.create(urn(), await checked(declared)).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(failure?.message).toMatch(/CampaignGroup "Spring sale": the create request may have reached the platform/);
  expect(failure?.message).toMatch(/set `adoptId: "<its id>"`/);
  // The group exists: adopting it is the way forward, and a retry would have duplicated it.
  expect(env.calls(OP_CREATE)).toHaveLength(1);
  expect(env.sim.state().campaignGroups.filter((g) => g.name === "Spring sale")).toHaveLength(1);
});

describe("adoptId", () => {
  const summer = { name: "Summer sale", color: "#FF8800", items: ["5001", "5002", "5003"] };

  it("takes over the existing group after reading it, without a POST", async () => {
    const created = await env.plugin.create(urn(), await checked({ ...summer, adoptId: SEED_IDS.campaignGroups.summer }));
    expect(created.id).toBe("701");
    expect(created.properties).toMatchObject({ ...summer, adoptId: "701", companyId: "7001", size: 3 });
    expect(env.calls(OP_CREATE)).toHaveLength(0);
    expect(env.calls(OP_VIEW)).toHaveLength(1);
    expect(env.engine.warnings()).toEqual([]);
  });

  it("refuses a group whose name or colour differs, since groups cannot be updated", async () => {
    const inputs = await checked({ ...summer, name: "Winter sale", color: "#000000", adoptId: "701" });
    const failure = await env.plugin.create(urn(), inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failure?.message).toMatch(/cannot adopt: name is "Summer sale" on the platform but "Winter sale" in the program/);
    expect(failure?.message).toMatch(/color is "#ff8800" on the platform but "#000000" in the program/);
    expect(failure?.message).toMatch(/cannot update a campaign group/);
    expect(env.calls(OP_CREATE)).toHaveLength(0);
  });

  it("refuses an id the platform does not have", async () => {
    const failure = await env.plugin.create(urn(), await checked({ ...summer, adoptId: "999999" })).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failure?.message).toMatch(/cannot adopt: the platform has no campaign group with id 999999/);
  });
});
