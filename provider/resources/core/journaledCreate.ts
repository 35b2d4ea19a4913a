/**
 * A create by POST, recorded in the create journal (docs/ARCHITECTURE.md, "The create journal"), so
 * an update killed between the platform's answer and the engine's record of it leaves no
 * duplicate: the next create of the same resource with the same inputs takes that object over
 * instead of sending the POST again.
 *
 * The protocol, for a resource whose URN the face knows (`ctx.urn`; without one, the POST is sent
 * as before, unrecorded):
 * 1. An entry of the URN from a process that still runs is waited for (the plugin of a killed
 *    update finishing its request).
 * 2. A matching entry (same kind, account and inputs) that holds an id: the object is taken over,
 *    with a warning, and nothing is sent. One without an answer: the outcome is unknown, so the
 *    ambiguous-create error says how to find and adopt the object, and the entry is dropped so the
 *    run after that creates. An entry that does not match is reported in a warning and replaced.
 * 3. Otherwise `sent` is written (synced) just before the request leaves, `answered` with the id
 *    right after the answer; a create that failed without creating anything leaves no entry.
 * The entry stays until the engine shows it holds the id (`acknowledgeCreated`, `acknowledgeStateHeld`,
 * `acknowledgeReplacementDelete`), or expires.
 */
import { hostname } from "node:os";
import { accountKey, resolveConnection } from "../../client";
import { sleep, type Clock } from "../../client/clock";
import { processAlive } from "../../client/processAlive";
import {
  beginCreate,
  engineIsGone,
  inputsHash,
  journalAccount,
  type JournalEntry,
  type JournalStore,
  journalStoreFor,
} from "../../journal";
import type { ResourceKind } from "../kinds";
import { ambiguousCreateError, mayHaveCreated, resourceError } from "../common/resourceErrors";
import type { LifecycleContext } from "./context";
import type { CreateResult } from "./lifecycle";

/** What the POST of a journaled create receives: pass all three to the client's `call`. */
export interface CreateSend {
  readonly signal: AbortSignal;
  readonly beforeSend: () => Promise<void>;
  readonly afterAttempt: () => void;
}

/** What the journal needs of a kind's definition (../common/definition.ts). */
export interface JournaledKind {
  readonly kind: ResourceKind;
  /** The kind's object in messages: `bid strategy`. */
  readonly noun: string;
}

/** One journaled create. */
export interface JournaledCreate<Inputs, Outputs> {
  readonly definition: JournaledKind;
  /** The checked inputs (hashed; a take-over returns them as outputs, with the journaled extras). */
  readonly inputs: Inputs;
  /** How messages name the resource (`<Kind> "<name>"`). */
  readonly subject: string;
  /** The declared name, which the ambiguous-create advice tells the user to look for. */
  readonly name: string;
  /** Sends the create; throws the client's error as it is. */
  post(send: CreateSend): Promise<CreateResult<Outputs>>;
}

/**
 * Decision: an entry whose process still runs is waited for at most 15 minutes after its request
 * was sent (the client's retry budget of 10 minutes plus a last attempt's timeout, with margin); a
 * process that holds it longer is taken as gone (its pid reused).
 */
const OWNER_WAIT_MS = 15 * 60 * 1000; // 15 min
const OWNER_POLL_MS = 250; // 0.25 s

const when = (epochMs: number) => new Date(epochMs).toISOString();

/**
 * Decision: a process on another machine (a journal in Redis) cannot be asked whether it runs, so
 * its `sent` entry is waited for 2 minutes after its send: an orphaned plugin abandons its retries,
 * so only an attempt on the wire is still to come, and an attempt takes at most a minute (the
 * client's default timeout).
 */
const OTHER_HOST_WAIT_MS = 2 * 60 * 1000; // 2 min

/** True while the process that wrote `entry` may still be sending it (`now` on the journal's clock). */
function ownerRuns(entry: JournalEntry, now: number): boolean {
  if (entry.pid === process.pid && entry.host === hostname()) return false;
  if (entry.host !== hostname()) return now - entry.sentAt < OTHER_HOST_WAIT_MS;
  return processAlive(entry.pid);
}

/** The URN's entry once no running process is still sending it. */
async function settledEntry(journal: JournalStore, urn: string, clock: Clock): Promise<JournalEntry | undefined> {
  for (;;) {
    const entry = await journal.get(urn);
    if (entry === undefined || entry.state === "answered" || !ownerRuns(entry, clock.now())) return entry;
    if (clock.now() - entry.sentAt > OWNER_WAIT_MS) return entry;
    await sleep(clock, OWNER_POLL_MS);
  }
}

// The session (`ctx.createSession`) records the object each journaled create of this process
// returned, by URN, and whether it was taken over (not POSTed). The engine deletes another id of the
// URN after such a create only as the last step of a create-before-delete replacement, which it
// takes after recording the new object; it never deletes the object it just received, unless it
// took it for the old one: a take-over of the object it already held (`refusedDelete`).

/** Outputs that differ from the inputs (what a take-over must add to the inputs). */
function extraOutputs(inputs: unknown, outputs: unknown): Record<string, unknown> {
  const ins = (inputs ?? {}) as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries((outputs ?? {}) as Record<string, unknown>)) {
    if (JSON.stringify(value) !== JSON.stringify(ins[key])) extra[key] = value;
  }
  return extra;
}

/** Runs `spec`'s create under the journal (see the module comment). */
export async function journaledCreate<Inputs, Outputs>(
  ctx: LifecycleContext,
  spec: JournaledCreate<Inputs, Outputs>,
): Promise<CreateResult<Outputs>> {
  const { inputs, subject } = spec;
  const { kind } = spec.definition;
  const hint = { noun: spec.definition.noun, name: spec.name };
  const session = ctx.createSession;
  const clock = session.clock;
  const urn = ctx.urn;
  let journal: JournalStore | undefined;
  let account = "";
  if (urn !== undefined) {
    try {
      const connection = resolveConnection({ baseUrl: ctx.settings.baseUrl, token: ctx.settings.token });
      account = journalAccount(accountKey(connection.baseUrl, connection.token));
      journal = journalStoreFor(ctx.settings);
    } catch (error) {
      throw resourceError(subject, error);
    }
  }
  const hash = inputsHash(kind, inputs);

  if (journal !== undefined && urn !== undefined) {
    const prior = await settledEntry(journal, urn, clock);
    if (prior !== undefined) {
      const matches = prior.kind === kind && prior.account === account && prior.inputsHash === hash;
      if (matches && prior.state === "answered" && prior.id !== undefined) {
        await ctx.warn(
          `${subject}: took over ${hint.noun} ${prior.id}, which an interrupted update created for this resource at ` +
            `${when(prior.sentAt)} and Pulumi never recorded; nothing was sent to the platform (the create journal ` +
            `in ${journal.where} remembered it).`,
        );
        session.recordCreate(urn, { id: prior.id, tookOver: true });
        return { id: prior.id, outputs: { ...inputs, ...prior.extraOutputs } as Outputs };
      }
      await journal.remove(urn);
      if (matches) {
        // Sent, never answered, and its process is gone: the platform may or may not have the object.
        throw ambiguousCreateError(
          subject,
          new Error(`an interrupted update sent this create at ${when(prior.sentAt)} and its answer never arrived`),
          hint,
        );
      }
      await ctx.warn(
        prior.state === "answered"
          ? `${subject}: an interrupted update created ${hint.noun} ${prior.id ?? "?"} for this resource at ` +
              `${when(prior.sentAt)} with other inputs or on another account, and Pulumi never recorded it; it stays on ` +
              `the platform outside this stack. A new one is created for the current inputs.`
          : `${subject}: an interrupted update sent a create for this resource at ${when(prior.sentAt)} with other ` +
              `inputs or on another account, and its answer never arrived, so a ${hint.noun} may exist that Pulumi does ` +
              `not know of. A new one is created for the current inputs.`,
      );
    }
  }

  const ticket = beginCreate();
  let sent = false;
  let sentAt = clock.now();
  /** This create's entry in `state` (what this process wrote, and when the request left). */
  const entryOf = (urn: string, state: Pick<JournalEntry, "state"> & Partial<JournalEntry>): JournalEntry => ({
    format: 1,
    urn,
    kind,
    account,
    inputsHash: hash,
    replacing: ctx.replacing,
    host: hostname(),
    pid: process.pid,
    sentAt,
    ...state,
  });
  const beforeSend = async () => {
    // Every attempt is on the wire from here; the entry is written before the first leaves.
    const first = !sent;
    sent = true;
    ticket.markSent();
    if (first && journal !== undefined && urn !== undefined) {
      sentAt = clock.now();
      await journal.put(entryOf(urn, { state: "sent" }));
    }
  };
  try {
    let result: CreateResult<Outputs>;
    try {
      result = await spec.post({ signal: ticket.signal, beforeSend, afterAttempt: () => ticket.markAnswered() });
    } catch (error) {
      const ambiguous = sent && mayHaveCreated(error);
      // An ambiguous failure is reported to the user now, so the entry goes (the advice says to run
      // again if no object exists); unless the engine is gone and nobody will see the report: then
      // the entry stays and the next run reports it.
      if (journal !== undefined && urn !== undefined && sent && !(ambiguous && engineIsGone())) {
        // The create's own error is what the user needs; a journal that fails here only keeps an
        // entry that the next run reports or that expires.
        const store = journal;
        await (async () => store.remove(urn))().catch(() => undefined);
      }
      if (ambiguous) throw ambiguousCreateError(subject, error, hint);
      throw resourceError(subject, error);
    }
    if (journal !== undefined && urn !== undefined) {
      const entry = entryOf(urn, {
        state: "answered",
        id: result.id,
        extraOutputs: extraOutputs(inputs, result.outputs),
        answeredAt: clock.now(),
      });
      try {
        await journal.put(entry);
      } catch (error) {
        // The object exists and the engine is about to record it: fail nothing, say what is missing.
        await ctx.warn(
          `${subject}: created ${hint.noun} ${result.id}, but the create journal in ${journal.where} could not record ` +
            `it (${error instanceof Error ? error.message : String(error)}); an update killed now would not know of it.`,
        );
      }
      session.recordCreate(urn, { id: result.id, tookOver: false });
    }
    return result;
  } finally {
    ticket.done();
  }
}

/**
 * The engine holds object `id` of `kind` (it named the id in a diff, update, read or delete, or a
 * program saw it): its journal entry has done its job and goes. Best effort: a journal that cannot
 * be read changes nothing about the call.
 *
 * Returns the resource's entry when it records another object: the engine holds `id` for this URN,
 * so that object is one an interrupted replacement created and the engine never recorded.
 */
export async function acknowledgeCreated(ctx: LifecycleContext, kind: ResourceKind, id: string): Promise<JournalEntry | undefined> {
  try {
    const journal = journalStoreFor(ctx.settings);
    if (ctx.urn !== undefined) {
      if (await journal.removeIfId(ctx.urn, id)) return undefined;
      const entry = await journal.get(ctx.urn);
      return entry?.state === "answered" && entry.kind === kind && entry.id !== undefined ? entry : undefined;
    }
    const connection = resolveConnection({ baseUrl: ctx.settings.baseUrl, token: ctx.settings.token });
    await journal.removeById(kind, journalAccount(accountKey(connection.baseUrl, connection.token)), id);
  } catch {
    // The journal is an aid: a missing or unreadable one must not fail the engine's call.
  }
  return undefined;
}

/**
 * After a `diff` that replaces nothing: the object `entry` records will not be taken over (no create
 * follows), so say that it stays on the platform outside the stack, once, and forget it.
 */
export async function reportUnrecordedReplacement(
  ctx: LifecycleContext,
  definition: JournaledKind,
  entry: JournalEntry,
  id: string,
): Promise<void> {
  const { noun } = definition;
  await ctx.warn(
    `${entry.kind} ${id}: an interrupted update created ${noun} ${entry.id} to replace it at ` +
      `${when(entry.sentAt)}, and Pulumi never recorded it; since this update keeps ${id}, ${noun} ` +
      `${entry.id} stays on the platform outside this stack (adopt it with adoptId on a resource of its own, or ignore it).`,
  );
  try {
    await journalStoreFor(ctx.settings).removeIfId(entry.urn, entry.id!);
  } catch {
    // reported; an entry left behind expires
  }
}

/**
 * A `Check` whose old inputs show that the engine's state holds a resource for `ctx.urn`: an entry a
 * first create of it wrote (`replacing: false`) records the object the state holds, since an
 * interrupted first create leaves the state without a resource (only a pending operation), so the
 * entry goes. Without this, a replacement with equal inputs that calls no `diff` before its create
 * (a provider change, a native program, which never acknowledges) would take the held object over.
 * An interrupted replacement's entry (`replacing: true`) stays for the take-over. Best effort.
 */
export async function acknowledgeStateHeld(ctx: LifecycleContext, kind: ResourceKind): Promise<void> {
  if (ctx.urn === undefined || ctx.replacing !== true) return;
  try {
    const journal = journalStoreFor(ctx.settings);
    const entry = await journal.get(ctx.urn);
    if (entry?.state === "answered" && entry.replacing === false && entry.kind === kind && entry.id !== undefined) {
      await journal.removeIfId(ctx.urn, entry.id);
    }
  } catch {
    // The journal is an aid: a missing or unreadable one must not fail the engine's call.
  }
}

/**
 * A `delete` of `id` for `ctx.urn` after this process's create of that URN returned another id: the
 * last step of a create-before-delete replacement, which the engine takes after recording the new
 * object, so the new object's entry goes (a program of the native face never acknowledges it).
 * Best effort.
 */
export async function acknowledgeReplacementDelete(ctx: LifecycleContext, id: string): Promise<void> {
  const created = ctx.urn === undefined ? undefined : ctx.createSession.createdFor(ctx.urn);
  if (created === undefined || created.id === id) return;
  try {
    await journalStoreFor(ctx.settings).removeIfId(ctx.urn!, created.id);
  } catch {
    // The journal is an aid: a missing or unreadable one must not fail the engine's call.
  }
}

/**
 * True when the engine asks to delete the object this process's create of the same URN took over:
 * the engine held that object already and asked for a new one (a `--target-replace`, whose `Check`
 * carries no old inputs, looks like the create after an interrupted first create), so the take-over
 * returned the old object as the new one. Deleting it would leave the state naming a deleted object
 * (the API deletes neither kind today, and the lifecycle's warning would call the object outside the
 * stack), so the delete does nothing and a warning says that nothing was replaced. The entry is gone
 * by then (the delete named its id), so the next replacement creates a new object.
 */
export async function refusedDelete(ctx: LifecycleContext, definition: JournaledKind, id: string): Promise<boolean> {
  const created = ctx.urn === undefined ? undefined : ctx.createSession.createdFor(ctx.urn);
  if (created === undefined || !created.tookOver || created.id !== id) return false;
  ctx.createSession.forget(ctx.urn!);
  const { kind, noun } = definition;
  await ctx.warn(
    `${kind} ${id}: nothing was replaced: this update's create of the resource took over ${noun} ${id}, which the ` +
      `create journal still held from the update that created it, so ${id} stays the resource's object and is not ` +
      `deleted. Run the replacement again to create a new ${noun}.`,
  );
  return true;
}
