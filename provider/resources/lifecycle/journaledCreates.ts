/**
 * The create journal's protocol, in one place: a create by POST is recorded so that an update
 * killed between the platform's answer and the engine's record of it leaves no duplicate. Where
 * entries live is `provider/journal`'s; what goes in them, and when, is decided here.
 *
 * An entry of a resource (keyed by its URN) moves through these states:
 * - none -> `sent`: written (synced) just before the first attempt of the POST leaves (`begin`);
 * - `sent` -> `answered`, with the id, right after the answer; `sent` -> none when the create failed
 *   without creating anything, or failed ambiguously and the user was told (`begin`);
 * - `answered` -> none once the engine shows it holds the id (`settle`: a `diff`, `read`, `update` or
 *   `delete` names it, a `Check` shows the state holds the resource, or the delete that ends a
 *   create-before-delete replacement names the old id), or when the entry expires (the store's sweep);
 * - a leftover entry of the URN -> none when the next create of the URN recovers it (`recover`): a
 *   matching `answered` object is taken over and nothing is sent; a matching `sent` one is reported
 *   as an ambiguous create; one that does not match is reported in a warning and replaced.
 *
 * A resource whose URN the face does not know (`ctx.urn`) is created as before, unrecorded.
 * Lifecycles call `journaledCreate` in their `create`; `journaling` wraps a kind's lifecycle once so
 * that every other call settles; a face holds one `CreateSession`; `engineGone` ends the creates of
 * a process whose engine has gone.
 */
import { hostname } from "node:os";
import { resolveAccount } from "../../client";
import { sleep, type Clock } from "../../client/clock";
import { processAlive } from "../../client/processAlive";
import { JOURNAL_FORMAT, inputsHash, journalAccount, type JournalEntry, type JournalStore, journalStoreFor } from "../../journal";
import { AdPlatformError, messageParts, renderMessage } from "../../errors";
import { listRecordsAtCheck, newRecordError, resolutionOf, unresolvedRecordError, warnOnce } from "./ambiguousRecords";
import type { ResourceKind } from "../kinds";
import { ambiguousCreateError, mayHaveCreated, resourceError } from "./resourceErrors";
import type { LifecycleContext } from "./context";
import type { CreateResult, ResourceLifecycle } from "./contract";

export { CreateSession } from "./createSession";

// ---------------------------------------------------------------------------------------------
// The creates under way in this process, for a process that must end cleanly when the engine that
// asked for them is gone: a create waiting for the rate limiter or a retry is not sent once the
// engine is gone (nobody would record its object); one on the wire is answered and journaled before
// the process ends, so the next run can take its object over.

interface Ticket {
  /** True while an attempt is on the wire: it is seen through, not aborted. */
  sent: boolean;
  readonly controller: AbortController;
  readonly finished: Promise<void>;
  finish(): void;
}

const tickets = new Set<Ticket>();
let gone = false;

/** The reason an unsent create is aborted with. */
function engineGoneError(): AdPlatformError {
  return new AdPlatformError("ADP_ERR_ENGINE_GONE", "not sent: the Pulumi engine that asked for this create has ended");
}

/**
 * The engine has ended: aborts every create not yet sent, and resolves once every create under way
 * is over (the sent ones answered and journaled).
 */
export async function engineGone(): Promise<void> {
  gone = true;
  for (const ticket of tickets) if (!ticket.sent) ticket.controller.abort(engineGoneError());
  await Promise.all([...tickets].map((ticket) => ticket.finished));
}

// ---------------------------------------------------------------------------------------------
// recover: a leftover entry of the URN, before a create sends anything.

/**
 * Decision: an entry whose process still runs is waited for at most 15 minutes after its request
 * was sent (the client's retry budget of 10 minutes plus a last attempt's timeout, with margin); a
 * process that holds it longer is taken as gone (its pid reused).
 */
const OWNER_WAIT_MS = 15 * 60 * 1000; // 15 min
const OWNER_POLL_MS = 250; // 0.25 s

/**
 * Decision: a process on another machine (a journal in Redis) cannot be asked whether it runs, so
 * its `sent` entry is waited for 2 minutes after its send: an orphaned plugin abandons its retries,
 * so only an attempt on the wire is still to come, and an attempt takes at most a minute (the
 * client's default timeout).
 */
const OTHER_HOST_WAIT_MS = 2 * 60 * 1000; // 2 min

const when = (epochMs: number) => new Date(epochMs).toISOString();

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
    if (entry === undefined || entry.state !== "sent" || !ownerRuns(entry, clock.now())) return entry;
    if (clock.now() - entry.sentAt > OWNER_WAIT_MS) return entry;
    await sleep(clock, OWNER_POLL_MS);
  }
}

/** One journaled create, as `journaledCreate` runs it. */
interface Journaled {
  readonly ctx: LifecycleContext;
  readonly journal: JournalStore;
  readonly urn: string;
  readonly account: string;
  readonly hash: string;
}

/**
 * The take-over of the URN's leftover entry when it matches this create's kind, account and inputs
 * and holds an id; undefined when a POST must follow (nothing left over, or a mismatch, reported).
 * Throws the ambiguous-create error for a matching entry that was sent and never answered.
 */
async function recover<Inputs, Outputs>(
  run: Journaled,
  spec: JournaledCreate<Inputs, Outputs>,
): Promise<CreateResult<Outputs> | undefined> {
  const { ctx, journal, urn } = run;
  const { subject, inputs } = spec;
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
    // Sent and never answered (its process is gone), or already a record: the platform may or may
    // not have the object, whatever the inputs are now. It stays a record until a person resolves it.
    throw unresolvedRecordError(subject, await keptAsRecord(journal, prior, spec.name), spec.definition, spec.name);
  }
  await journal.remove(urn);
  await ctx.warn(
    `${subject}: an interrupted update created ${noun} ${prior.id ?? "?"} for this resource at ` +
      `${when(prior.sentAt)} with other inputs or on another account, and Pulumi never recorded it; it stays on ` +
      `the platform outside this stack. A new one is created for the current inputs.`,
  );
  return undefined;
}

/**
 * `entry` as an `ambiguous` record: a `sent` entry whose process is gone becomes one (its create may
 * have reached the platform), written back so the sweep and every other machine keep it too.
 */
async function keptAsRecord(journal: JournalStore, entry: JournalEntry, name: string): Promise<JournalEntry> {
  if (entry.state === "ambiguous") return entry;
  const record: JournalEntry = { ...entry, format: JOURNAL_FORMAT, state: "ambiguous", name: entry.name ?? name };
  await journal.put(record);
  return record;
}

// ---------------------------------------------------------------------------------------------
// begin: the POST under a `sent` entry, then its outcome.

/** What the POST of a journaled create receives: pass all three to the client's `call`. */
export interface CreateSend {
  readonly signal: AbortSignal;
  readonly beforeSend: () => Promise<void>;
  readonly afterAttempt: () => void;
}

/** What the journal needs of a kind's definition (../inputs/definition.ts). */
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

/** Outputs that differ from the inputs (what a take-over must add to the inputs). */
function extraOutputs(inputs: unknown, outputs: unknown): Record<string, unknown> {
  const ins = (inputs ?? {}) as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries((outputs ?? {}) as Record<string, unknown>)) {
    if (JSON.stringify(value) !== JSON.stringify(ins[key])) extra[key] = value;
  }
  return extra;
}

/** Sends `spec`'s POST; with `run`, under a `sent` entry that becomes `answered` or goes. */
async function begin<Inputs, Outputs>(
  ctx: LifecycleContext,
  spec: JournaledCreate<Inputs, Outputs>,
  run: Journaled | undefined,
): Promise<CreateResult<Outputs>> {
  const { subject, inputs } = spec;
  const { kind, noun } = spec.definition;
  const clock = ctx.createSession.clock;
  let finish!: () => void;
  const ticket: Ticket = {
    sent: false,
    controller: new AbortController(),
    finished: new Promise<void>((resolve) => (finish = resolve)),
    finish: () => finish(),
  };
  if (gone) ticket.controller.abort(engineGoneError());
  tickets.add(ticket);
  let sent = false;
  let sentAt = clock.now();
  /** This create's entry in `state` (what this process wrote, and when the request left). */
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
      // Every attempt is on the wire from here; the entry is written before the first leaves.
      const first = !sent;
      sent = true;
      ticket.sent = true;
      if (first && run !== undefined) {
        sentAt = clock.now();
        await run.journal.put(entryOf(run, { state: "sent" }));
      }
    },
    // A POST is sent again only after an answer that created nothing (a 429, a refused
    // connection), so from here it may be abandoned again.
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
        // The record that no retry resends (./ambiguousRecords.ts). Should the journal fail here, its
        // `sent` entry stays, which the next create reads as this same record.
        const record = entryOf(run, {
          state: "ambiguous",
          name: spec.name,
          failure: renderMessage({ ...messageParts(error), subject: undefined, remedy: undefined }),
        });
        const kept = await (async () => run.journal.put(record))().then(
          () => true,
          () => false,
        );
        if (kept) throw newRecordError(subject, record, spec.definition, spec.name, error);
      } else if (run !== undefined && sent) {
        // Nothing was created: the entry goes. The create's own error is what the user needs; a
        // journal that fails here keeps a `sent` entry, which the next create reports as ambiguous.
        await (async () => run.journal.remove(run.urn))().catch(() => undefined);
      }
      if (ambiguous) throw ambiguousCreateError(subject, error, { noun, name: spec.name });
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
        // The object exists and the engine is about to record it: fail nothing, say what is missing.
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
    ticket.finish();
  }
}

/** The journal account of the context's connection: a hash of its account key, never the token. */
function accountOf(ctx: LifecycleContext): string {
  return journalAccount(resolveAccount({ baseUrl: ctx.settings.baseUrl, token: ctx.settings.token }).key);
}

/** Runs `spec`'s create under the journal: `recover`, else `begin` (see the module comment). */
export async function journaledCreate<Inputs, Outputs>(
  ctx: LifecycleContext,
  spec: JournaledCreate<Inputs, Outputs>,
): Promise<CreateResult<Outputs>> {
  const urn = ctx.urn;
  if (urn === undefined) return begin(ctx, spec, undefined);
  let run: Journaled;
  try {
    run = {
      ctx,
      urn,
      account: accountOf(ctx),
      journal: journalStoreFor(ctx.settings),
      hash: inputsHash(spec.definition.kind, spec.inputs),
    };
  } catch (error) {
    throw resourceError(spec.subject, error);
  }
  return (await recover(run, spec)) ?? begin(ctx, spec, run);
}

// ---------------------------------------------------------------------------------------------
// settle: the engine's calls show what its state holds, and the entries it holds go. Best effort
// throughout: the journal is an aid, and a missing or unreadable one must not fail the engine's call.

/**
 * The engine holds object `id` of `kind` (it named the id in a diff, update, read or delete): its
 * entry has done its job and goes. Returns the resource's entry when it records another object: the
 * engine holds `id` for this URN, so that object is one an interrupted replacement created and the
 * engine never recorded.
 */
async function settleNamed(ctx: LifecycleContext, kind: ResourceKind, id: string): Promise<JournalEntry | undefined> {
  try {
    const journal = journalStoreFor(ctx.settings);
    if (ctx.urn !== undefined) {
      if (await journal.removeIfId(ctx.urn, id)) return undefined;
      const entry = await journal.get(ctx.urn);
      return entry?.state === "answered" && entry.kind === kind && entry.id !== undefined ? entry : undefined;
    }
    await journal.removeById(kind, accountOf(ctx), id);
  } catch {
    // best effort (see above)
  }
  return undefined;
}

/**
 * After a `diff` that replaces nothing: the object `entry` records will not be taken over (no create
 * follows), so say that it stays on the platform outside the stack, once, and forget it.
 */
async function settleUnrecordedReplacement(ctx: LifecycleContext, noun: string, entry: JournalEntry, id: string): Promise<void> {
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
 * A `Check` showing that the engine's state holds a resource for `ctx.urn`: an entry a first create
 * of it wrote (`replacing: false`) records the object the state holds, since an interrupted first
 * create leaves the state without a resource (only a pending operation), so the entry goes. Without
 * this, a replacement with equal inputs that calls no `diff` before its create (a provider change, a
 * native program, which never names the id otherwise) would take the held object over. An
 * interrupted replacement's entry (`replacing: true`) stays for the take-over.
 */
async function settleChecked(ctx: LifecycleContext, kind: ResourceKind, olds: Record<string, unknown>): Promise<void> {
  if (ctx.urn === undefined || ctx.createSession.checked(ctx.urn, olds) !== true) return;
  try {
    const journal = journalStoreFor(ctx.settings);
    const entry = await journal.get(ctx.urn);
    if (entry?.state === "answered" && entry.replacing === false && entry.kind === kind && entry.id !== undefined) {
      await journal.removeIfId(ctx.urn, entry.id);
    }
  } catch {
    // best effort (see above)
  }
}

/**
 * A `delete` of `id` for `ctx.urn` after this process's create of that URN returned another id: the
 * last step of a create-before-delete replacement, which the engine takes after recording the new
 * object, so the new object's entry goes (a program of the native face never names it otherwise).
 */
async function settleReplacementDelete(ctx: LifecycleContext, id: string): Promise<void> {
  const created = ctx.urn === undefined ? undefined : ctx.createSession.createdFor(ctx.urn);
  if (created === undefined || created.id === id) return;
  try {
    await journalStoreFor(ctx.settings).removeIfId(ctx.urn!, created.id);
  } catch {
    // best effort (see above)
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

/** The `name` input of a journaled kind (both have one), for messages. */
function declaredName(inputs: unknown): string {
  const name = (inputs as { name?: unknown } | undefined)?.name;
  return typeof name === "string" ? name : "";
}

/**
 * The create of a resource whose URN may hold an ambiguous record (./ambiguousRecords.ts): refused,
 * with nothing sent, until the record is resolved; resolved by `adoptId`, the kind's adoption runs
 * and the record goes; by `createAgain`, the record goes and the create runs (one POST).
 */
async function createResolving<Inputs, Outputs>(
  definition: JournaledKind,
  lifecycle: ResourceLifecycle<Inputs, Outputs>,
  inputs: Inputs,
  ctx: LifecycleContext,
): Promise<CreateResult<Outputs>> {
  const urn = ctx.urn;
  if (urn === undefined) return lifecycle.create(inputs, ctx);
  const name = declaredName(inputs);
  const subject = `${definition.kind} ${JSON.stringify(name)}`;
  let journal: JournalStore;
  let prior: JournalEntry | undefined;
  try {
    journal = journalStoreFor(ctx.settings);
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
    await journal.remove(urn);
    return lifecycle.create(inputs, ctx);
  }
  const adopted = await lifecycle.create(inputs, ctx);
  await journal.remove(urn);
  return adopted;
}

/**
 * `lifecycle` with every call that shows what the engine holds settling first: the engine calls
 * `diff`, `update`, `read` and `delete` only with ids from its state, so the entry of that create is
 * no longer needed, and must go before a replacement with equal inputs creates the resource again.
 */
export function journaling<Inputs, Outputs>(
  definition: JournaledKind,
  lifecycle: ResourceLifecycle<Inputs, Outputs>,
): ResourceLifecycle<Inputs, Outputs> {
  const { kind, noun } = definition;
  return {
    async check(olds, news, ctx) {
      await settleChecked(ctx, kind, olds);
      const result = await lifecycle.check(olds, news, ctx);
      if (ctx.urn !== undefined) {
        const name = declaredName(result.inputs);
        await listRecordsAtCheck(ctx, () => journalStoreFor(ctx.settings), {
          kind: definition,
          subject: `${kind} ${JSON.stringify(name)}`,
          name,
          inputs: result.inputs,
        });
      }
      return result;
    },
    async diff(id, olds, news, ctx) {
      const unrecorded = await settleNamed(ctx, kind, id);
      const result = await lifecycle.diff(id, olds, news, ctx);
      // A replacement's create would take the unrecorded object over; without one it is orphaned.
      if (unrecorded !== undefined && result.replaces.length === 0) await settleUnrecordedReplacement(ctx, noun, unrecorded, id);
      return result;
    },
    create: (inputs, ctx) => createResolving(definition, lifecycle, inputs, ctx),
    async read(id, state, ctx) {
      await settleNamed(ctx, kind, id);
      return lifecycle.read(id, state, ctx);
    },
    async update(id, olds, news, ctx) {
      await settleNamed(ctx, kind, id);
      return lifecycle.update(id, olds, news, ctx);
    },
    async delete(id, state, ctx) {
      await settleNamed(ctx, kind, id);
      await settleReplacementDelete(ctx, id);
      if (await refusedDelete(ctx, definition, id)) return;
      return lifecycle.delete(id, state, ctx);
    },
  };
}
