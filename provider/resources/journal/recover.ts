/**
 * recover: before a create sends anything, a matching answered entry of its URN is taken over; a `sent`
 * one whose process is gone becomes an `ambiguous` record, refusing it; a mismatch is reported and replaced.
 */
import { hostname } from "node:os";
import { sleep, type Clock, processAlive } from "../../infrastructure";
import { unresolvedRecordError } from "./ambiguousRecords";
import { type Journaled, type JournaledCreate, namesOf, when } from "./journalRun";
import { JOURNAL_FORMAT, type JournalEntry, type JournalStore } from "./store";

/** Decision: a running owner is waited for at most 15 min (10-min retry budget, a last attempt, margin); longer, its pid is reused. */
const OWNER_WAIT_MS = 15 * 60 * 1000; // 15 min
const OWNER_POLL_MS = 250; // 0.25 s

/** Decision: another machine's owner cannot be asked, so 2 min: an orphan abandons retries, an attempt takes 1 min at most. */
const OTHER_HOST_WAIT_MS = 2 * 60 * 1000; // 2 min

/** True while the process that wrote `entry` may still be sending it (`now` on the journal's clock). */
function ownerRuns(entry: JournalEntry, now: number): boolean {
  if (entry.pid === process.pid && entry.host === hostname()) return false;
  if (entry.host !== hostname()) return now - entry.sentAt < OTHER_HOST_WAIT_MS;
  return processAlive(entry.pid);
}

/** The URN's entry once no running process is still sending it. */
export async function settledEntry(journal: JournalStore, urn: string, clock: Clock): Promise<JournalEntry | undefined> {
  for (;;) {
    const entry = await journal.get(urn);
    if (entry === undefined || entry.state !== "sent" || !ownerRuns(entry, clock.now())) return entry;
    if (clock.now() - entry.sentAt > OWNER_WAIT_MS) return entry;
    await sleep(clock, OWNER_POLL_MS);
  }
}

/** The take-over of a matching answered entry; undefined when a POST must follow; throws for an unanswered one. */
export async function recover<Inputs, Outputs>(run: Journaled, spec: JournaledCreate<Inputs, Outputs>) {
  const { ctx, journal, urn } = run;
  const { inputs } = spec;
  const { name, subject } = namesOf(spec.definition, inputs);
  const { kind, noun } = spec.definition;
  const prior = await settledEntry(journal, urn, ctx.createSession.clock);
  if (prior === undefined) return undefined;
  const matches = prior.kind === kind && prior.account === run.account && prior.inputsHash === run.hash;
  if (matches && prior.state === "answered" && prior.id !== undefined) {
    await ctx.warn(
      `${subject}: took over ${noun} ${prior.id}, which an interrupted update created for this resource at ` +
        `${when(prior.sentAt)} and Pulumi never recorded; nothing was sent to the platform (the create journal ` +
        `in ${journal.where} remembered it).`,
    );
    ctx.createSession.recordCreate(urn, { id: prior.id, tookOver: true });
    return { id: prior.id, outputs: { ...inputs, ...prior.extraOutputs } as Outputs };
  }
  if (prior.state !== "answered") {
    // Never answered: the object may exist, whatever the inputs are now. A record until a person resolves it.
    throw unresolvedRecordError(subject, await keptAsRecord(journal, prior, name), spec.definition, name);
  }
  await journal.remove(urn);
  await ctx.warn(
    `${subject}: an interrupted update created ${noun} ${prior.id ?? "?"} for this resource at ` +
      `${when(prior.sentAt)} with other inputs or on another account, and Pulumi never recorded it; it stays on ` +
      `the platform outside this stack. A new one is created for the current inputs.`,
  );
  return undefined;
}

/** `entry` as an `ambiguous` record, written back so the sweep and every other machine keep it too. */
export async function keptAsRecord(journal: JournalStore, entry: JournalEntry, name: string): Promise<JournalEntry> {
  if (entry.state === "ambiguous") return entry;
  const record: JournalEntry = { ...entry, format: JOURNAL_FORMAT, state: "ambiguous", name: entry.name ?? name };
  await journal.put(record);
  return record;
}
