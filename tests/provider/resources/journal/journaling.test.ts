/**
 * The create protocol's own state and time: the journal's dates and waits are on the clock of the
 * context's `createSession`, and what a create of this process returned is the session's, not the
 * process's. The protocol through real plugins is journaling.plugin.test.ts.
 */
import { hostname } from "node:os";
import { resolveAccount } from "../../../../provider/client";
import { resolveSettings, valuesLayer } from "../../../../provider/configuration/settings";
import { CreateJournal, inputsHash, journalAccount, type JournalEntry } from "../../../../provider/resources/journal/store";
import { CAMPAIGN_GROUP } from "../../../../provider/resources/campaignGroup/definition";
import type { LifecycleContext } from "../../../../provider/resources/lifecycle/context";
import { CreateSession, journaledCreate } from "../../../../provider/resources/journal";
import { refusedDelete } from "../../../../provider/resources/journal/settle";
import { FakeClock } from "../../../helpers/fakeClock";
import { STRATEGY_INPUTS, strategyCreate } from "../../../helpers/strategyCreate";

const connection = { baseUrl: "http://127.0.0.1:9", token: "journaled-create-test-token" };
const account = journalAccount(resolveAccount(connection).key);
const journal = new CreateJournal(process.env.ADPLATFORM_JOURNAL_DIR!);
const urn = (name: string) => `urn:pulumi:dev::p::pulumi-nodejs:dynamic/adplatform:BidStrategy::${name}`;
// Journal dates are epoch milliseconds: a fake time far from the wall clock's shows which one is read.
const START = Date.UTC(2030, 0, 1);

function context(createSession: CreateSession, resourceUrn: string) {
  const warnings: string[] = [];
  const ctx: LifecycleContext = {
    warn: async (message) => void warnings.push(message),
    info: async () => undefined,
    settings: resolveSettings([valuesLayer("explicit", connection)]),
    urn: resourceUrn,
    createSession,
  };
  return { ctx, warnings };
}

/** An entry of `urn` as a create of another process wrote it. */
function entry(resourceUrn: string, fields: Partial<JournalEntry> & Pick<JournalEntry, "state" | "sentAt">): JournalEntry {
  return {
    format: 1,
    urn: resourceUrn,
    kind: "BidStrategy",
    account,
    inputsHash: inputsHash("BidStrategy", STRATEGY_INPUTS),
    host: hostname(),
    pid: process.pid,
    ...fields,
  };
}

it("dates the journal entry with the session's clock", async () => {
  const clock = new FakeClock(START);
  const { ctx } = context(new CreateSession(clock), urn("dated"));
  const create = strategyCreate("801");
  await journaledCreate(ctx, create.spec);
  expect(journal.get(urn("dated"))).toMatchObject({ state: "answered", id: "801", sentAt: START, answeredAt: START });
});

it("waits for another machine's unanswered create on the session's clock, then reports it", async () => {
  const clock = new FakeClock(START);
  const { ctx } = context(new CreateSession(clock), urn("elsewhere"));
  journal.put(entry(urn("elsewhere"), { state: "sent", sentAt: START, host: `not-${hostname()}`, pid: 1 }));
  const create = strategyCreate("802");
  let outcome: unknown;
  const run = journaledCreate(ctx, create.spec).then(
    () => (outcome = "created"),
    (error: unknown) => (outcome = error),
  );
  // That machine's attempt may still be on the wire for 2 minutes after it was sent.
  await clock.advance(119_000);
  expect(outcome).toBeUndefined();
  await clock.advance(2_000);
  await run;
  expect(String(outcome)).toMatch(
    /an earlier create of this resource, sent at 2030-01-01T00:00:00\.000Z, may have reached the platform \(its process ended before the platform's answer arrived\)/,
  );
  // It stays as the ambiguous record that every later create reads.
  expect(journal.get(urn("elsewhere"))).toMatchObject({ state: "ambiguous", sentAt: START });
  expect(create.posts()).toBe(0);
});

it("keeps what a create returned in its session: only the session that took an object over refuses its delete", async () => {
  const resource = urn("taken");
  const groupInputs = { name: "Summer", color: "#aabbcc", items: ["1"] };
  journal.put({
    ...entry(resource, { state: "answered", id: "701", sentAt: START }),
    kind: "CampaignGroup",
    inputsHash: inputsHash("CampaignGroup", groupInputs),
  });
  const taking = context(new CreateSession(new FakeClock(START)), resource);
  const other = context(new CreateSession(new FakeClock(START)), resource);
  const taken = await journaledCreate(taking.ctx, {
    definition: CAMPAIGN_GROUP,
    inputs: groupInputs,
    post: () => Promise.reject(new Error("a take-over sends nothing")),
  });
  expect(taken.id).toBe("701");
  expect(taking.warnings).toEqual([expect.stringContaining("took over campaign group 701")]);

  expect(await refusedDelete(other.ctx, CAMPAIGN_GROUP, "701")).toBe(false);
  expect(await refusedDelete(taking.ctx, CAMPAIGN_GROUP, "701")).toBe(true);
  expect(taking.warnings[1]).toMatch(
    /^CampaignGroup 701: nothing was replaced: .* took over campaign group 701.*create a new campaign group\.$/,
  );
});
