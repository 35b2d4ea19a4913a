/**
 * The journal's durable store (`provider/resources/journal/store/createJournal.ts`): one file per URN, replaced
 * atomically, removed by URN and id or by kind, account and id, swept after its time.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CreateJournal, JOURNAL_ENTRY_TTL_MS, JOURNAL_FORMAT, entryFileName } from "../../../../../provider/resources/journal/store";
import { itAsOtherUser, runAsOtherUser } from "../../../../helpers/otherUser";
import { ENTRY_URN, answeredEntry } from "../../../../helpers/sampleJournalEntry";

let dir: string;
let journal: CreateJournal;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "adp-journal-"));
  journal = new CreateJournal(path.join(dir, "nested", "journal"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it("writes an entry (creating the directory, owner-only) and reads it back by URN", () => {
  journal.put(answeredEntry());
  expect(journal.get(ENTRY_URN)).toEqual(answeredEntry());
  expect(journal.get(ENTRY_URN.replace("::a", "::b"))).toBeUndefined();
  const file = path.join(journal.dir, entryFileName(ENTRY_URN));
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  // Only the entry: the temporary file of the write was renamed over it.
  expect(fs.readdirSync(journal.dir)).toEqual([entryFileName(ENTRY_URN)]);
});

it("replaces a URN's entry: `sent`, then `answered`", () => {
  journal.put(answeredEntry({ state: "sent", id: undefined }));
  journal.put(answeredEntry({ state: "answered", id: "100002" }));
  expect(journal.get(ENTRY_URN)).toMatchObject({ state: "answered", id: "100002" });
  expect(journal.entries()).toHaveLength(1);
});

it("removes by URN only when the entry records the id the engine named", () => {
  journal.put(answeredEntry());
  expect(journal.removeIfId(ENTRY_URN, "100009")).toBe(false);
  expect(journal.get(ENTRY_URN)).toBeDefined();
  expect(journal.removeIfId(ENTRY_URN, "100001")).toBe(true);
  expect(journal.get(ENTRY_URN)).toBeUndefined();
});

it("removes by kind, account and id, leaving other kinds and accounts alone", () => {
  const other = ENTRY_URN.replace("::a", "::b");
  journal.put(answeredEntry());
  journal.put(answeredEntry({ urn: other, account: "another" }));
  journal.removeById("CampaignGroup", "acct", "100001");
  expect(journal.entries()).toHaveLength(2);
  journal.removeById("BidStrategy", "acct", "100001");
  expect(journal.entries().map(([, e]) => e.urn)).toEqual([other]);
});

it("sweeps entries older than the time to live, and temporary files of writes that never finished", () => {
  const young = ENTRY_URN.replace("::a", "::young");
  journal.put(answeredEntry());
  journal.put(answeredEntry({ urn: young, sentAt: JOURNAL_ENTRY_TTL_MS }));
  const stray = path.join(journal.dir, ".x.json.1.abcd.tmp");
  fs.writeFileSync(stray, "{");
  fs.utimesSync(stray, new Date(0), new Date(0));
  journal.sweep(JOURNAL_ENTRY_TTL_MS + 1_001);
  expect(journal.entries().map(([, e]) => e.urn)).toEqual([young]);
  expect(fs.existsSync(stray)).toBe(false);
});

it("keeps an ambiguous record past the time to live, and lists it: only a person resolves it", () => {
  const record = ENTRY_URN.replace("::a", "::record");
  journal.put(answeredEntry());
  journal.put(answeredEntry({ urn: record, state: "ambiguous", id: undefined, name: "Night bids" }));
  journal.sweep(JOURNAL_ENTRY_TTL_MS * 10);
  expect(journal.entries().map(([, e]) => e.urn)).toEqual([record]);
  expect(journal.ambiguous()).toEqual([expect.objectContaining({ urn: record, state: "ambiguous" })]);
});

it("drops a file that is not an entry, but keeps an entry of a newer format", () => {
  fs.mkdirSync(journal.dir, { recursive: true });
  const junk = path.join(journal.dir, entryFileName(ENTRY_URN));
  fs.writeFileSync(junk, "not json");
  expect(journal.get(ENTRY_URN)).toBeUndefined();
  expect(fs.existsSync(junk)).toBe(false);
  fs.writeFileSync(junk, JSON.stringify({ ...answeredEntry(), format: JOURNAL_FORMAT + 1 }));
  expect(() => journal.get(ENTRY_URN)).toThrow("written by a newer release"); // tests/provider/resources/journal/store/storedEntry.test.ts
  expect(fs.existsSync(junk)).toBe(true);
});

it("reads a missing directory as an empty journal", () => {
  expect(journal.entries()).toEqual([]);
  expect(() => journal.remove(ENTRY_URN)).not.toThrow();
  expect(() => journal.sweep(Date.now())).not.toThrow();
});

describe("a journal directory this user does not alone control", () => {
  it("is refused, with what to do, before anything is read or written in it", () => {
    fs.mkdirSync(journal.dir, { recursive: true });
    fs.chmodSync(journal.dir, 0o777);
    fs.writeFileSync(path.join(journal.dir, entryFileName(ENTRY_URN)), JSON.stringify(answeredEntry()));
    expect(() => journal.get(ENTRY_URN)).toThrow(/create journal directory cannot be used: .* writable by group or others .*journalDir/);
    expect(() => journal.put(answeredEntry())).toThrow(/writable by group or others/);
    expect(fs.readdirSync(journal.dir)).toEqual([entryFileName(ENTRY_URN)]);
  });

  it("is refused when it is a link", () => {
    const real = path.join(dir, "real");
    fs.mkdirSync(real, { mode: 0o700 });
    fs.symlinkSync(real, path.join(dir, "link"));
    expect(() => new CreateJournal(path.join(dir, "link")).put(answeredEntry())).toThrow(/is a symbolic link/);
    expect(fs.readdirSync(real)).toEqual([]);
  });

  itAsOtherUser("is refused when another user made it first and planted an entry, which is never taken for ours", async () => {
    fs.chmodSync(dir, 0o1777);
    const theirs = path.join(dir, "theirs");
    const planted = await runAsOtherUser(
      `const fs = require("node:fs");
       const [dir, name, entry] = process.argv.slice(1);
       fs.mkdirSync(dir); fs.chmodSync(dir, 0o777);
       fs.writeFileSync(dir + "/" + name, entry);`,
      [theirs, entryFileName(ENTRY_URN), JSON.stringify(answeredEntry({ id: "their-object" }))],
    );
    expect(planted).toMatchObject({ code: 0, stderr: "" });
    const journalThere = new CreateJournal(theirs);
    expect(() => journalThere.get(ENTRY_URN)).toThrow(/owned by uid 65534/);
    expect(() => journalThere.put(answeredEntry())).toThrow(/owned by uid 65534/);
    expect(fs.readdirSync(theirs)).toEqual([entryFileName(ENTRY_URN)]);
  });
});
