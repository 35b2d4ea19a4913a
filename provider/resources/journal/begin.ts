/**
 * begin: a POST under a `sent` entry, synced before the first attempt leaves; then `answered`, `ambiguous`
 * (failed after it may have arrived) or gone. Once the engine is gone, a create waiting for the limiter
 * or a retry is not sent (nobody would record its object); one on the wire is seen through.
 */
import { hostname } from "node:os";
import { AdPlatformError, messageParts, renderMessage } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import type { CreateResult } from "../lifecycle/contract";
import { ambiguousCreateError, mayHaveCreated, resourceError } from "../lifecycle/resourceErrors";
import { newRecordError } from "./ambiguousRecords";
import { bestEffort, type CreateSend, type Journaled, type JournaledCreate, namesOf } from "./journalRun";
import { JOURNAL_FORMAT, type JournalEntry } from "./store";

interface Ticket {
  /** True while an attempt is on the wire: it is seen through, not aborted. */
  sent: boolean;
  readonly controller: AbortController;
  readonly finished: Promise<void>;
}

const tickets = new Set<Ticket>();
let gone = false;

const engineGoneError = () =>
  new AdPlatformError("ADP_ERR_ENGINE_GONE", "not sent: the Pulumi engine that asked for this create has ended");

/** The engine has ended: aborts every unsent create; resolves once the sent ones are answered and journaled. */
export async function engineGone(): Promise<void> {
  gone = true;
  for (const ticket of tickets) if (!ticket.sent) ticket.controller.abort(engineGoneError());
  await Promise.all([...tickets].map((ticket) => ticket.finished));
}

/** Outputs that differ from the inputs (what a take-over must add to them). */
function extraOutputs(inputs: unknown, outputs: unknown): Record<string, unknown> {
  const ins = (inputs ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(outputs ?? {}).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(ins[key])));
}

/** Sends `spec`'s POST; with `run`, under a `sent` entry that becomes `answered` or goes. */
export async function begin<Inputs, Outputs>(ctx: LifecycleContext, spec: JournaledCreate<Inputs, Outputs>, run: Journaled | undefined) {
  const { inputs } = spec;
  const { name, subject } = namesOf(spec.definition, inputs);
  const { kind, noun } = spec.definition;
  const clock = ctx.createSession.clock;
  let finish!: () => void;
  const ticket: Ticket = { sent: false, controller: new AbortController(), finished: new Promise<void>((resolve) => (finish = resolve)) };
  if (gone) ticket.controller.abort(engineGoneError());
  tickets.add(ticket);
  let sent = false;
  let sentAt = clock.now();
  const entryOf = (journaled: Journaled, state: Pick<JournalEntry, "state"> & Partial<JournalEntry>): JournalEntry => ({
    format: JOURNAL_FORMAT,
    urn: journaled.urn,
    kind,
    account: journaled.account,
    inputsHash: journaled.hash,
    replacing: ctx.createSession.stateHolds(journaled.urn),
    host: hostname(),
    pid: process.pid,
    sentAt,
    ...state,
  });
  const send: CreateSend = {
    signal: ticket.controller.signal,
    beforeSend: async () => {
      const first = !sent;
      sent = true;
      ticket.sent = true;
      if (first && run !== undefined) {
        sentAt = clock.now();
        await run.journal.put(entryOf(run, { state: "sent" }));
      }
    },
    // A POST is resent only after an answer that created nothing (a 429, a refused connection).
    afterAttempt: () => {
      ticket.sent = false;
      if (gone) ticket.controller.abort(engineGoneError());
    },
  };
  try {
    let result: CreateResult<Outputs>;
    try {
      result = await spec.post(send);
    } catch (error) {
      const ambiguous = sent && mayHaveCreated(error);
      if (run !== undefined && ambiguous) {
        // No retry resends it; should the journal fail, the `sent` entry stays and reads as this same record.
        const record = entryOf(run, {
          state: "ambiguous",
          name,
          failure: renderMessage({ ...messageParts(error), subject: undefined, remedy: undefined }),
        });
        const kept = await (async () => run.journal.put(record))().then(
          () => true,
          () => false,
        );
        if (kept) throw newRecordError(subject, record, spec.definition, name, error);
      } else if (run !== undefined && sent) {
        // Nothing was created: the entry goes (if the journal fails, the next create reports it as ambiguous).
        await bestEffort(() => run.journal.remove(run.urn));
      }
      if (ambiguous) throw ambiguousCreateError(subject, error, { noun, name });
      throw resourceError(subject, error);
    }
    if (run !== undefined) {
      const entry = entryOf(run, {
        state: "answered",
        id: result.id,
        extraOutputs: extraOutputs(inputs, result.outputs),
        answeredAt: clock.now(),
      });
      try {
        await run.journal.put(entry);
      } catch (error) {
        // The engine is about to record the object: fail nothing, say what is missing.
        await ctx.warn(
          `${subject}: created ${noun} ${result.id}, but the create journal in ${run.journal.where} could not record ` +
            `it (${error instanceof Error ? error.message : String(error)}); an update killed now would not know of it.`,
        );
      }
      ctx.createSession.recordCreate(run.urn, { id: result.id, tookOver: false });
    }
    return result;
  } finally {
    tickets.delete(ticket);
    finish();
  }
}
