/**
 * The journal's durable store (`provider/journal/createJournal.ts`): one file per URN, replaced
 * atomically, removed by URN and id or by kind, account and id, swept after its time.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CreateJournal, JOURNAL_ENTRY_TTL_MS, entryFileName } from "../../provider/journal";
import { ENTRY_URN, answeredEntry } from "./journalEntries";

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

it("drops a file that is not an entry, but keeps an entry of a newer format", () => {
  fs.mkdirSync(journal.dir, { recursive: true });
  const junk = path.join(journal.dir, entryFileName(ENTRY_URN));
  fs.writeFileSync(junk, "not json");
  expect(journal.get(ENTRY_URN)).toBeUndefined();
  expect(fs.existsSync(junk)).toBe(false);
  fs.writeFileSync(junk, JSON.stringify({ ...answeredEntry(), format: 2 }));
  expect(journal.get(ENTRY_URN)).toBeUndefined();
  expect(fs.existsSync(junk)).toBe(true);
});

it("reads a missing directory as an empty journal", () => {
  expect(journal.entries()).toEqual([]);
  expect(() => journal.remove(ENTRY_URN)).not.toThrow();
  expect(() => journal.sweep(Date.now())).not.toThrow();
});
