/**
 * The create journal's protocol: a create by POST is recorded so that an update killed between the
 * platform's answer and the engine's record of it leaves no duplicate. Steps: ./recover.ts, ./begin.ts,
 * ./settle.ts. Without a URN (`ctx.urn`) a create goes unrecorded.
 */
import type { LifecycleContext } from "../lifecycle/context";
import type { CreateResult, ResourceLifecycle } from "../lifecycle/contract";
import { listLeftBehind } from "../lifecycle/leftBehind";
import { resourceError } from "../lifecycle/resourceErrors";
import { listRecordsAtCheck, resolutionOf, unresolvedRecordError, warnOnce } from "./ambiguousRecords";
import { begin } from "./begin";
import { accountOf, callJournal, type Journaled, type JournaledCreate, type JournaledKind, namesOf } from "./journalRun";
import { keptAsRecord, recover, settledEntry } from "./recover";
import { refusedDelete, settleChecked, settleNamed, settleReplacementDelete, settleUnrecordedReplacement } from "./settle";
import { ambiguousRecordId, inputsHash, type JournalEntry, type JournalStore } from "./store";

/** Runs `spec`'s create under the journal: `recover`, else `begin`. */
export async function journaledCreate<Inputs, Outputs>(ctx: LifecycleContext, spec: JournaledCreate<Inputs, Outputs>) {
  const urn = ctx.urn;
  if (urn === undefined) return begin(ctx, spec, undefined);
  let run: Journaled;
  try {
    run = { ctx, urn, account: accountOf(ctx), journal: callJournal(ctx.settings)(), hash: inputsHash(spec.definition.kind, spec.inputs) };
  } catch (error) {
    throw resourceError(namesOf(spec.definition, spec.inputs).subject, error);
  }
  return (await recover(run, spec)) ?? begin(ctx, spec, run);
}

/** A create whose URN may hold an ambiguous record: refused until resolved by `adoptId` or `createAgain`, then it goes. */
async function createResolving<Inputs, Outputs>(
  definition: JournaledKind,
  lifecycle: ResourceLifecycle<Inputs, Outputs>,
  inputs: Inputs,
  ctx: LifecycleContext,
): Promise<CreateResult<Outputs>> {
  const urn = ctx.urn;
  if (urn === undefined) return lifecycle.create(inputs, ctx);
  const { name, subject } = namesOf(definition, inputs);
  let journal: JournalStore;
  let prior: JournalEntry | undefined;
  try {
    journal = callJournal(ctx.settings)();
    prior = await settledEntry(journal, urn, ctx.createSession.clock);
  } catch (error) {
    throw resourceError(subject, error);
  }
  if (prior === undefined || prior.state === "answered") return lifecycle.create(inputs, ctx);
  const record = await keptAsRecord(journal, prior, name);
  const resolution = resolutionOf(record, inputs, ctx.settings);
  if (resolution === undefined) {
    const refused = unresolvedRecordError(subject, record, definition, name);
    await warnOnce(ctx, record, refused);
    throw refused;
  }
  if ("createAgain" in resolution) {
    // Whatever the ambiguous create made stays beside the new object: listed first.
    await listLeftBehind(ctx, {
      kind: definition.kind,
      name,
      change: "createdAgain",
      record: ambiguousRecordId(record),
      leftAt: record.sentAt,
    });
    await journal.remove(urn);
    return lifecycle.create(inputs, ctx);
  }
  const adopted = await lifecycle.create(inputs, ctx);
  await journal.remove(urn);
  return adopted;
}

/** `lifecycle` with each call that shows what the engine holds settling it first, before a replacement could take it over. */
export function journaling<Inputs, Outputs>(
  definition: JournaledKind,
  lifecycle: ResourceLifecycle<Inputs, Outputs>,
): ResourceLifecycle<Inputs, Outputs> {
  const { kind, noun } = definition;
  return {
    async check(olds, news, ctx) {
      const journal = callJournal(ctx.settings);
      await settleChecked(ctx, journal, kind, olds);
      const result = await lifecycle.check(olds, news, ctx);
      await listRecordsAtCheck(ctx, journal, { kind: definition, ...namesOf(definition, result.inputs), inputs: result.inputs });
      return result;
    },
    async diff(id, olds, news, ctx) {
      const journal = callJournal(ctx.settings);
      const unrecorded = await settleNamed(ctx, journal, kind, id);
      const result = await lifecycle.diff(id, olds, news, ctx);
      // A replacement's create would take the unrecorded object over; without one it is orphaned.
      if (unrecorded !== undefined && result.replaces.length === 0) {
        await settleUnrecordedReplacement(ctx, journal, noun, unrecorded, id);
      }
      return result;
    },
    create: (inputs, ctx) => createResolving(definition, lifecycle, inputs, ctx),
    async read(id, state, ctx) {
      await settleNamed(ctx, callJournal(ctx.settings), kind, id);
      return lifecycle.read(id, state, ctx);
    },
    async update(id, olds, news, ctx) {
      await settleNamed(ctx, callJournal(ctx.settings), kind, id);
      return lifecycle.update(id, olds, news, ctx);
    },
    async delete(id, state, ctx) {
      const journal = callJournal(ctx.settings);
      await settleNamed(ctx, journal, kind, id);
      await settleReplacementDelete(ctx, journal, id);
      if (await refusedDelete(ctx, definition, id)) return;
      return lifecycle.delete(id, state, ctx);
    },
  };
}
