/** Entries' hashes and names (`provider/resources/journal/store/journalEntry.ts`). */
import { canonicalJson, entryFileName, inputsHash, journalAccount } from "../../../../../provider/resources/journal/store";

it("writes canonical JSON: keys sorted at every depth, undefined fields left out", () => {
  expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: undefined, w: null }], c: "s" } })).toBe(
    '{"a":{"c":"s","d":[1,{"w":null,"y":2}]},"b":1}',
  );
});

it("hashes equal inputs equally whatever their key order, and differently per kind or value", () => {
  const a = inputsHash("BidStrategy", { name: "N", value: 1.5 });
  expect(inputsHash("BidStrategy", { value: 1.5, name: "N" })).toBe(a);
  expect(inputsHash("CampaignGroup", { name: "N", value: 1.5 })).not.toBe(a);
  expect(inputsHash("BidStrategy", { name: "N", value: 1.6 })).not.toBe(a);
});

it("names files and accounts by hashes, never by the URN or the account key itself", () => {
  const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/adplatform:BidStrategy::a/b";
  expect(entryFileName(urn)).toMatch(/^[0-9a-f]{40}\.json$/);
  expect(journalAccount("key")).toMatch(/^[0-9a-f]{64}$/);
  expect(journalAccount("key")).not.toContain("key");
});
