/** One entry of the create journal: what a create of one resource sent, and what the platform answered. */
import { createHash } from "node:crypto";
import { z } from "zod";

/** Format 2 added `ambiguous`: a format-1 release takes such an entry for a newer release's and sends no create (storedEntry.ts). */
export const JOURNAL_FORMAT = 2;

/**
 * An entry, keyed by URN. `sent`: written before the request left, no answer yet; `answered`: with `id`,
 * perhaps not recorded by the engine; `ambiguous`: the create may have arrived, nobody knows; no create
 * is sent for the URN until a person resolves it (../ambiguousRecords.ts), and it never expires.
 */
export const JournalEntry = z.object({
  format: z.union([z.literal(1), z.literal(JOURNAL_FORMAT)]),
  urn: z.string(),
  kind: z.string(),
  /** `journalAccount`, so an entry never applies to another account. */
  account: z.string(),
  inputsHash: z.string(),
  state: z.enum(["sent", "answered", "ambiguous"]),
  /** `answered` only. */
  id: z.string().optional(),
  /** Outputs the answer added to the inputs (a group's `companyId`), so a take-over returns them too. */
  extraOutputs: z.record(z.string(), z.unknown()).optional(),
  /** Whether the state held a resource for the URN at the send (`false`: a later one is this object); absent: unknown. */
  replacing: z.boolean().optional(),
  /** The sending process (to tell whether it still runs). */
  host: z.string(),
  pid: z.number(),
  /** Epoch milliseconds. */
  sentAt: z.number(),
  answeredAt: z.number().optional(),
  /** The object's declared name, which a person looks for on the platform (`ambiguous` only). */
  name: z.string().optional(),
  /** What made it `ambiguous`, as the user was told (scrubbed of secrets). */
  failure: z.string().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

/** JSON with object keys sorted at every depth, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
export const keyHash = (text: string) => sha256(text).slice(0, 40);

export function inputsHash(kind: string, inputs: unknown): string {
  return sha256(canonicalJson({ kind, inputs }));
}

/** The entry's account field: a hash of the account key, never the key. */
export function journalAccount(accountKey: string): string {
  return sha256(`journal\u0000${accountKey}`);
}

/** An ambiguous record's name (`adplatform:createAgain`): hashes URN and send time, so it resolves this record only. */
export function ambiguousRecordId(entry: Pick<JournalEntry, "urn" | "sentAt">): string {
  return `amb-${sha256(`${entry.urn}\u0000${entry.sentAt}`).slice(0, 12)}`;
}

/** The file name of a URN's entry (a hash: URNs hold characters file systems refuse). */
export function entryFileName(urn: string): string {
  return `${keyHash(urn)}.json`;
}
