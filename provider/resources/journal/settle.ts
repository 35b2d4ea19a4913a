/**
 * settle: the engine's calls show what its state holds, and the entries it holds go. The engine calls
 * `diff`, `read`, `update` and `delete` only with ids from its state; a native `Check` with old inputs
 * shows the state holds the resource; the `delete` that ends a create-before-delete replacement names
 * the old id; the SDK sees the id the engine recorded. Best effort throughout: the journal is an aid,
 * and a missing or unreadable one must not fail the engine's call.
 */
import type { Settings } from "../../configuration";
import type { ResourceKind } from "../kinds";
import type { LifecycleContext } from "../lifecycle/context";
import { accountOf, type CallJournal, callJournal, type JournaledKind, when } from "./journalRun";
import type { JournalEntry } from "./store";

/** `step`'s value, or undefined when the journal fails it (see the module comment). */
async function bestEffort<T>(step: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await step();
  } catch {
    return undefined;
  }
}

/**
 * The engine holds object `id` of `kind` (it named the id in a diff, update, read or delete): its
 * entry has done its job and goes. Returns the resource's entry when it records another object: the
 * engine holds `id` for this URN, so that object is one an interrupted replacement created and the
 * engine never recorded.
 */
export function settleNamed(
  ctx: LifecycleContext,
  journal: CallJournal,
  kind: ResourceKind,
  id: string,
): Promise<JournalEntry | undefined> {
  return bestEffort(async () => {
    const [store, urn] = [journal(), ctx.urn];
    if (urn === undefined) {
      await store.removeById(kind, accountOf(ctx), id);
      return undefined;
    }
    if (await store.removeIfId(urn, id)) return undefined;
    const entry = await store.get(urn);
    return entry?.state === "answered" && entry.kind === kind && entry.id !== undefined ? entry : undefined;
  });
}

/**
 * After a `diff` that replaces nothing: the object `entry` records will not be taken over (no create
 * follows), so say that it stays on the platform outside the stack, once, and forget it (an entry
 * the journal fails to remove expires).
 */
export async function settleUnrecordedReplacement(
  ctx: LifecycleContext,
  journal: CallJournal,
  noun: string,
  entry: JournalEntry,
  id: string,
) {
  await ctx.warn(
    `${entry.kind} ${id}: an interrupted update created ${noun} ${entry.id} to replace it at ` +
      `${when(entry.sentAt)}, and Pulumi never recorded it; since this update keeps ${id}, ${noun} ` +
      `${entry.id} stays on the platform outside this stack (adopt it with adoptId on a resource of its own, or ignore it).`,
  );
  await bestEffort(() => journal().removeIfId(entry.urn, entry.id!));
}

/**
 * A `Check` showing that the engine's state holds a resource for `ctx.urn`: an entry a first create
 * of it wrote (`replacing: false`) records the object the state holds, since an interrupted first
 * create leaves the state without a resource (only a pending operation), so the entry goes. Without
 * this, a replacement with equal inputs that calls no `diff` before its create (a provider change, a
 * native program, which never names the id otherwise) would take the held object over. An
 * interrupted replacement's entry (`replacing: true`) stays for the take-over.
 */
export async function settleChecked(ctx: LifecycleContext, journal: CallJournal, kind: ResourceKind, olds: Record<string, unknown>) {
  const urn = ctx.urn;
  if (urn === undefined || ctx.createSession.checked(urn, olds) !== true) return;
  await bestEffort(async () => {
    const entry = await journal().get(urn);
    if (entry?.state === "answered" && entry.replacing === false && entry.kind === kind && entry.id !== undefined) {
      await journal().removeIfId(urn, entry.id);
    }
  });
}

/**
 * A `delete` of `id` for `ctx.urn` after this process's create of that URN returned another id: the
 * last step of a create-before-delete replacement, which the engine takes after recording the new
 * object, so the new object's entry goes (a program of the native face never names it otherwise).
 */
export async function settleReplacementDelete(ctx: LifecycleContext, journal: CallJournal, id: string): Promise<void> {
  const created = ctx.urn === undefined ? undefined : ctx.createSession.createdFor(ctx.urn);
  if (created === undefined || created.id === id) return;
  await bestEffort(() => journal().removeIfId(ctx.urn!, created.id));
}

/**
 * The engine has answered the registration of `urn` with `id` (the SDK sees it, outside previews):
 * it has recorded the object, so the entry has done its job. This is what keeps a later replacement
 * with equal inputs (`pulumi up --target-replace`) from taking the replaced object over when no
 * provider call names the id in between.
 */
export async function settleRecorded(settings: Pick<Settings, "journalDir" | "limitsUrl">, urn: string, id: string): Promise<void> {
  await bestEffort(() => callJournal(settings)().removeIfId(urn, id));
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
