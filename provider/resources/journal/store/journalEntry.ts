/**
 * One entry of the create journal (`../index.ts`): what a create of
 * one resource sent, and what the platform answered.
 */
import { createHash } from "node:crypto";
import { z } from "zod";

/**
 * The journal's format version, written into every entry. Format 2 added the `ambiguous` state: a
 * release that reads format 1 takes a format-2 entry for a newer release's record and sends no create
 * for its URN (storedEntry.ts), which is what an ambiguous record asks of every release. Entries of
 * format 1 (a release before it, mid-rollout) are read as they are.
 */
export const JOURNAL_FORMAT = 2;

/**
 * An entry, keyed by the resource's URN.
 * - `sent`: the create request went out (written, synced, before the request left); no answer yet.
 * - `answered`: the platform answered with `id`; the engine may not have recorded it.
 * - `ambiguous`: the create may have reached the platform and nobody knows whether it did (it failed
 *   after it may have arrived, or its process ended before its answer). No create is sent for the URN
 *   until a person resolves the record (`../ambiguousRecords.ts`); it never expires.
 */
export const JournalEntry = z.object({
  format: z.union([z.literal(1), z.literal(JOURNAL_FORMAT)]),
  /** The resource's URN (its identity in the stack). */
  urn: z.string(),
  /** The resource kind (`BidStrategy`, `CampaignGroup`). */
  kind: z.string(),
  /** SHA-256 of the account key (`accountKey`), so an entry never applies to another account. */
  account: z.string(),
  /** `inputsHash` of the create's checked inputs. */
  inputsHash: z.string(),
  state: z.enum(["sent", "answered", "ambiguous"]),
  /** The created object's id (`answered` only). */
  id: z.string().optional(),
  /** Outputs the answer added to the inputs (a group's `companyId`), so a take-over returns them too. */
  extraOutputs: z.record(z.string(), z.unknown()).optional(),
  /**
   * Whether the engine's state held a resource for the URN when the create was sent (the face's
   * `replacing`). `false`: once a `Check` shows the state holds a resource for the URN, it is this
   * object (an interrupted first create leaves the state without one). Absent: unknown.
   */
  replacing: z.boolean().optional(),
  /** Host name and pid of the process that sent the request (to tell whether it still runs). */
  host: z.string(),
  pid: z.number(),
  /** When the request went out and when its answer arrived, epoch milliseconds. */
  sentAt: z.number(),
  answeredAt: z.number().optional(),
  /** The object's declared name, which a person looks for on the platform (`ambiguous` only). */
  name: z.string().optional(),
  /** What made a create `ambiguous`, as the user was told (scrubbed of secrets, like every error text). */
  failure: z.string().optional(),
});
/** One journal entry. */
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

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The hash of a create's checked inputs, with its kind: equal for the same request body intent. */
export function inputsHash(kind: string, inputs: unknown): string {
  return sha256(canonicalJson({ kind, inputs }));
}

/** The entry's account field for an account key (a hash of it: the key itself is never written). */
export function journalAccount(accountKey: string): string {
  return sha256(`journal\u0000${accountKey}`);
}

/**
 * The name a person uses for an ambiguous record (`adplatform:createAgain`): a hash of its URN and
 * the time its create was sent, so the name resolves this record only, never a later one of the same
 * resource.
 */
export function ambiguousRecordId(entry: Pick<JournalEntry, "urn" | "sentAt">): string {
  return `amb-${sha256(`${entry.urn}\u0000${entry.sentAt}`).slice(0, 12)}`;
}

/** The file name of a URN's entry (a hash: URNs hold characters file systems refuse). */
export function entryFileName(urn: string): string {
  return `${sha256(urn).slice(0, 40)}.json`;
}
