/**
 * Ambiguous creates as records no retry can resend. The API has no delete, no idempotency key and no
 * way to find an object by name (spec, Endpoints 2 and 3), so a create that may have reached the
 * platform is never sent again by a machine: the create journal keeps it as an `ambiguous` entry of
 * its URN, and every later create of that resource (an error hook's retry in the same run, a CI job
 * run again, another machine sharing the journal through Redis) fails without sending anything.
 *
 * A person resolves a record with one act a reviewer sees, and that the preview announces:
 * - `adoptId` on the resource, naming the object the create made: the create adopts it (no POST);
 * - `adplatform:createAgain` naming the record's id: nothing was made, and exactly one POST follows.
 * The record's id is a hash of its URN and send time (`ambiguousRecordId`), so a `createAgain` left in
 * the config never resolves a later record of the same resource.
 *
 * Every preview and update lists the records of its stack once per process, at the first `check`
 * of a journaled resource, so a record whose resource is not in the program is seen too.
 */
import { ambiguousRecordId, type JournalEntry, type JournalStore, stackOfUrn } from "./store";
import { ApiResponseError } from "../../client";
import type { Settings } from "../../configuration";
import type { LifecycleContext } from "../lifecycle/context";
import { ResourceOperationError } from "../lifecycle/resourceErrors";
import { type JournaledKind as RecordedKind, when } from "./journalRun";

/** How a record is resolved by the program and the settings in force; undefined: not resolved. */
export type Resolution = { readonly adopt: string } | { readonly createAgain: true };

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

/** The part of a URN that names its stack and project. */
function stackOf(urn: string): string {
  const { stack, project } = stackOfUrn(urn);
  return `${stack}::${project}`;
}

/** The resource's name in its URN (the part after the last `::`). */
const resourceName = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * What to look for and the two acts that resolve `entry`, as one paragraph. With `createdId` (a
 * success answer that failed the schema still named the object, `ApiResponseError.createdId`), that
 * object is named, so the user need not search for it.
 */
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

/** Why the record exists, in the words of its failure. */
function reasonOf(entry: JournalEntry, noun: string): string {
  const failure = entry.failure ?? "its process ended before the platform's answer arrived";
  return (
    `not sent: an earlier create of this resource, sent at ${when(entry.sentAt)}, may have reached the platform ` +
    `(${failure}), so a ${noun} may exist that Pulumi does not know of. The create journal keeps it as ambiguous ` +
    `record ${ambiguousRecordId(entry)}, and nothing is sent for this resource until someone says whether it did, so ` +
    `no retry (an error hook, a job run again, another machine) can create a second ${noun}.`
  );
}

/** The error of a create refused because of an unresolved record. */
export function unresolvedRecordError(subject: string, entry: JournalEntry, kind: RecordedKind, name: string): ResourceOperationError {
  return new ResourceOperationError({ subject, reason: reasonOf(entry, kind.noun), remedy: remedy(entry, kind.noun, name) });
}

/**
 * The error of a create that failed ambiguously just now, after its record was written: the same
 * message as every later attempt gets, with the failure itself.
 */
export function newRecordError(
  subject: string,
  entry: JournalEntry,
  kind: RecordedKind,
  name: string,
  cause: unknown,
): ResourceOperationError {
  const reason =
    `the create request may have reached the platform (${entry.failure ?? "no answer"}), so a ${kind.noun} may now ` +
    `exist that Pulumi does not know of. The create journal keeps it as ambiguous record ${ambiguousRecordId(entry)}: ` +
    `no create is sent for this resource again, by a retry or a later run, until someone says whether it did.`;
  const createdId = cause instanceof ApiResponseError ? cause.createdId : undefined;
  return new ResourceOperationError({ subject, reason, remedy: remedy(entry, kind.noun, name, createdId) }, { cause });
}

/** What a preview says of a record whose resource is being checked, by how it is resolved. */
function noticeFor(entry: JournalEntry, kind: RecordedKind, subject: string, name: string, resolution: Resolution | undefined): string {
  const id = ambiguousRecordId(entry);
  if (resolution === undefined) return `${subject}: ${reasonOf(entry, kind.noun)}\n${remedy(entry, kind.noun, name)}`;
  if ("adopt" in resolution) {
    return (
      `${subject}: ambiguous record ${id} (a create sent at ${when(entry.sentAt)}) is resolved by adoptId: this update ` +
      `adopts ${kind.noun} ${resolution.adopt} and sends no create.`
    );
  }
  return (
    `${subject}: ambiguous record ${id} (a create sent at ${when(entry.sentAt)}) is resolved by adplatform:createAgain, ` +
    `which says no ${kind.noun} was made: this update sends exactly one create for it. Remove the id from createAgain afterwards.`
  );
}

/** Record ids already shown in this process, and the stacks whose records were listed. */
const shown = new Set<string>();
const listed = new Set<string>();

/**
 * Says `error` (a refused create of `entry`'s resource) as a warning too, once per process and record
 * unless a preview listed it: the engine ends an error hook's retries with an error of its own and
 * drops the provider's, so without it a hook that always retries would hide why.
 */
export async function warnOnce(ctx: LifecycleContext, entry: JournalEntry, error: Error): Promise<void> {
  const id = ambiguousRecordId(entry);
  if (shown.has(id)) return;
  shown.add(id);
  await ctx.warn(error.message);
}

/**
 * At a `check` of `ctx.urn`: its own record, with how this update resolves it, and once per process
 * the other records of its stack, each as a warning. Best effort: a journal that cannot be read is
 * said by the create that needs it.
 */
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
      if (resolution !== undefined || !shown.has(ambiguousRecordId(entry))) {
        shown.add(ambiguousRecordId(entry));
        const message = noticeFor(entry, own.kind, own.subject, own.name, resolution);
        await (resolution === undefined ? ctx.warn(message) : ctx.info(message));
      }
    }
    const stack = stackOf(urn);
    if (listed.has(stack)) return;
    listed.add(stack);
    for (const other of await journal.ambiguous()) {
      const id = ambiguousRecordId(other);
      if (stackOf(other.urn) !== stack || other.urn === urn || shown.has(id)) continue;
      shown.add(id);
      await ctx.warn(recordLine(other, createAgainIds(ctx.settings).has(id)));
    }
  } catch {
    // best effort (see above)
  }
}

/** One line on a record of the stack whose resource is not the one being checked. */
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
