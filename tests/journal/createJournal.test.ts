/**
 * The journal's durable store (`provider/journal/createJournal.ts`): one file per URN, replaced
 * atomically, removed by URN and id or by kind, account and id, swept after its time.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CreateJournal, JOURNAL_ENTRY_TTL_MS, entryFileName, type JournalEntry } from "../../provider/journal";

let dir: string;
let journal: CreateJournal;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "adp-journal-"));
  journal = new CreateJournal(path.join(dir, "nested", "journal"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/adplatform:BidStrategy::a";
const entry = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  format: 1,
  urn: URN,
  kind: "BidStrategy",
  account: "acct",
  inputsHash: "h",
  state: "answered",
  id: "100001",
  host: "h1",
  pid: 1,
  sentAt: 1_000,
  ...over,
});

it("writes an entry (creating the directory, owner-only) and reads it back by URN", () => {
  journal.put(entry());
  expect(journal.get(URN)).toEqual(entry());
  expect(journal.get(URN.replace("::a", "::b"))).toBeUndefined();
  const file = path.join(journal.dir, entryFileName(URN));
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  // Only the entry: the temporary file of the write was renamed over it.
  expect(fs.readdirSync(journal.dir)).toEqual([entryFileName(URN)]);
});

it("replaces a URN's entry: `sent`, then `answered`", () => {
  journal.put(entry({ state: "sent", id: undefined }));
  journal.put(entry({ state: "answered", id: "100002" }));
  expect(journal.get(URN)).toMatchObject({ state: "answered", id: "100002" });
  expect(journal.entries()).toHaveLength(1);
});

it("removes by URN only when the entry records the id the engine named", () => {
  journal.put(entry());
  expect(journal.removeIfId(URN, "100009")).toBe(false);
  expect(journal.get(URN)).toBeDefined();
  expect(journal.removeIfId(URN, "100001")).toBe(true);
  expect(journal.get(URN)).toBeUndefined();
});

it("removes by kind, account and id, leaving other kinds and accounts alone", () => {
  const other = URN.replace("::a", "::b");
  journal.put(entry());
  journal.put(entry({ urn: other, account: "another" }));
  journal.removeById("CampaignGroup", "acct", "100001");
  expect(journal.entries()).toHaveLength(2);
  journal.removeById("BidStrategy", "acct", "100001");
  expect(journal.entries().map(([, e]) => e.urn)).toEqual([other]);
});

it("sweeps entries older than the time to live, and temporary files of writes that never finished", () => {
  const young = URN.replace("::a", "::young");
  journal.put(entry());
  journal.put(entry({ urn: young, sentAt: JOURNAL_ENTRY_TTL_MS }));
  const stray = path.join(journal.dir, ".x.json.1.abcd.tmp");
  fs.writeFileSync(stray, "{");
  fs.utimesSync(stray, new Date(0), new Date(0));
  journal.sweep(JOURNAL_ENTRY_TTL_MS + 1_001);
  expect(journal.entries().map(([, e]) => e.urn)).toEqual([young]);
  expect(fs.existsSync(stray)).toBe(false);
});

it("drops a file that is not an entry, but keeps an entry of a newer format", () => {
  fs.mkdirSync(journal.dir, { recursive: true });
  const junk = path.join(journal.dir, entryFileName(URN));
  fs.writeFileSync(junk, "not json");
  expect(journal.get(URN)).toBeUndefined();
  expect(fs.existsSync(junk)).toBe(false);
  fs.writeFileSync(junk, JSON.stringify({ ...entry(), format: 2 }));
  expect(journal.get(URN)).toBeUndefined();
  expect(fs.existsSync(junk)).toBe(true);
});

it("reads a missing directory as an empty journal", () => {
  expect(journal.entries()).toEqual([]);
  expect(() => journal.remove(URN)).not.toThrow();
  expect(() => journal.sweep(Date.now())).not.toThrow();
});
