/**
 * Ambiguous creates as records no retry resends (no delete, no idempotency key, no find by name: spec,
 * Endpoints 2 and 3): every later create of the resource fails unsent until a person resolves it, as the
 * preview announces: `adoptId` (no POST) or `adplatform:createAgain` naming the record's id (one POST),
 * which hashes URN and send time, so a stale `createAgain` never resolves a later record.
 */
import { ambiguousRecordId, type JournalEntry, type JournalStore, stackOfUrn } from "./store";
import { ApiResponseError } from "../../client";
import type { Settings } from "../../configuration";
import type { LifecycleContext } from "../lifecycle/context";
import { ResourceOperationError } from "../lifecycle/resourceErrors";
import { type JournaledKind as RecordedKind, when } from "./journalRun";

type Resolution = { readonly adopt: string } | { readonly createAgain: true };

/** The record ids `settings.createAgain` names (commas or white space between them). */
export function createAgainIds(settings: Pick<Settings, "createAgain">): Set<string> {
  return new Set((settings.createAgain ?? "").split(/[\s,]+/).filter((id) => id !== ""));
}

/** How `entry` is resolved by `inputs` (`adoptId`) or `settings` (`createAgain`), if it is. */
export function resolutionOf(entry: JournalEntry, inputs: unknown, settings: Pick<Settings, "createAgain">): Resolution | undefined {
  const adoptId = (inputs as { adoptId?: unknown } | undefined)?.adoptId;
  if (typeof adoptId === "string" && adoptId !== "") return { adopt: adoptId };
  return createAgainIds(settings).has(ambiguousRecordId(entry)) ? { createAgain: true } : undefined;
}

const stackOf = (urn: string) => `${stackOfUrn(urn).stack}::${stackOfUrn(urn).project}`;

const resourceName = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/** What to look for and the two acts that resolve `entry`; names `createdId` where the answer did. */
function remedy(entry: JournalEntry, noun: string, name: string, createdId?: string): string {
  const id = ambiguousRecordId(entry);
  const look =
    createdId !== undefined
      ? `The platform may have created ${noun} ${createdId} (its answer named that id): set ` +
        `\`adoptId: ${JSON.stringify(createdId)}\` on this resource and run again to take it over (nothing is sent). `
      : `Look on the platform for a ${noun} named ${JSON.stringify(name)} created around ${when(entry.sentAt)}. ` +
        `If it is there, set \`adoptId: "<its id>"\` on this resource and run again (nothing is sent). `;
  return (
    look +
    `If it is not, run \`pulumi config set adplatform:createAgain ${id}\` (or set createAgain on the provider) and run ` +
    `again: exactly one create is sent.`
  );
}

function reasonOf(entry: JournalEntry, noun: string): string {
  const failure = entry.failure ?? "its process ended before the platform's answer arrived";
  return (
    `not sent: an earlier create of this resource, sent at ${when(entry.sentAt)}, may have reached the platform ` +
    `(${failure}), so a ${noun} may exist that Pulumi does not know of. The create journal keeps it as ambiguous ` +
    `record ${ambiguousRecordId(entry)}, and nothing is sent for this resource until someone says whether it did, so ` +
    `no retry (an error hook, a job run again, another machine) can create a second ${noun}.`
  );
}

export function unresolvedRecordError(subject: string, entry: JournalEntry, kind: RecordedKind, name: string): ResourceOperationError {
  return new ResourceOperationError({ subject, reason: reasonOf(entry, kind.noun), remedy: remedy(entry, kind.noun, name) });
}

/** The error of a create that failed ambiguously just now, its record written. */
export function newRecordError(subject: string, entry: JournalEntry, kind: RecordedKind, name: string, cause: unknown) {
  const reason =
    `the create request may have reached the platform (${entry.failure ?? "no answer"}), so a ${kind.noun} may now ` +
    `exist that Pulumi does not know of. The create journal keeps it as ambiguous record ${ambiguousRecordId(entry)}: ` +
    `no create is sent for this resource again, by a retry or a later run, until someone says whether it did.`;
  const createdId = cause instanceof ApiResponseError ? cause.createdId : undefined;
  return new ResourceOperationError({ subject, reason, remedy: remedy(entry, kind.noun, name, createdId) }, { cause });
}

/** What a preview says of the record of the resource being checked. */
function noticeFor(entry: JournalEntry, kind: RecordedKind, subject: string, name: string, resolution: Resolution | undefined): string {
  if (resolution === undefined) return `${subject}: ${reasonOf(entry, kind.noun)}\n${remedy(entry, kind.noun, name)}`;
  const resolved = `${subject}: ambiguous record ${ambiguousRecordId(entry)} (a create sent at ${when(entry.sentAt)}) is resolved by`;
  return "adopt" in resolution
    ? `${resolved} adoptId: this update adopts ${kind.noun} ${resolution.adopt} and sends no create.`
    : `${resolved} adplatform:createAgain, which says no ${kind.noun} was made: this update sends exactly one create for it. ` +
        `Remove the id from createAgain afterwards.`;
}

/** Record ids shown and stacks listed in this process. */
const shown = new Set<string>();
const listed = new Set<string>();

/** Adds `key`; true when `seen` did not hold it. */
const added = (seen: Set<string>, key: string) => seen.size < seen.add(key).size;

/** A refused create's `error` as a warning too, once per record: after a hook's retries the engine drops the error. */
export async function warnOnce(ctx: LifecycleContext, entry: JournalEntry, error: Error): Promise<void> {
  if (added(shown, ambiguousRecordId(entry))) await ctx.warn(error.message);
}

/** At a `check`: the URN's record and how it is resolved, and once per process its stack's others. Best effort. */
export async function listRecordsAtCheck(
  ctx: LifecycleContext,
  journalOf: () => JournalStore,
  own: { readonly kind: RecordedKind; readonly subject: string; readonly name: string; readonly inputs: unknown },
): Promise<void> {
  const urn = ctx.urn;
  if (urn === undefined) return;
  try {
    const journal = journalOf();
    const entry = await journal.get(urn);
    if (entry?.state === "ambiguous") {
      const resolution = resolutionOf(entry, own.inputs, ctx.settings);
      // Its own resource says how this update resolves it each time; unresolved, once.
      if (added(shown, ambiguousRecordId(entry)) || resolution !== undefined) {
        const message = noticeFor(entry, own.kind, own.subject, own.name, resolution);
        await (resolution === undefined ? ctx.warn(message) : ctx.info(message));
      }
    }
    const stack = stackOf(urn);
    if (!added(listed, stack)) return;
    for (const other of await journal.ambiguous()) {
      const id = ambiguousRecordId(other);
      if (stackOf(other.urn) === stack && other.urn !== urn && added(shown, id))
        await ctx.warn(recordLine(other, createAgainIds(ctx.settings).has(id)));
    }
  } catch {
    // best effort
  }
}

/** One line on another record of the stack. */
function recordLine(entry: JournalEntry, createAgain: boolean): string {
  const id = ambiguousRecordId(entry);
  const resolved = createAgain ? " (adplatform:createAgain names it: its next create is sent)" : "";
  const named = entry.name === undefined ? "" : ` named ${JSON.stringify(entry.name)}`;
  return (
    `${entry.kind} ${JSON.stringify(resourceName(entry.urn))}: ambiguous record ${id}${resolved}: a create${named} sent at ` +
    `${when(entry.sentAt)} may have reached the platform (${entry.failure ?? "its process ended before the answer"}); ` +
    `no create is sent for that resource (${entry.urn}) until it is resolved. After looking on the platform, set adoptId ` +
    `on the resource, or run \`pulumi config set adplatform:createAgain ${id}\`.`
  );
}
