/**
 * settle: entries of what the engine's state holds go, as its calls show it (`diff`, `read`, `update` and
 * `delete` name ids from its state; so do a native `Check` with old inputs, a replacement's last `delete`
 * and the SDK's registration). Best effort: an unusable journal must not fail the engine's call.
 */
import type { Settings } from "../../configuration";
import type { ResourceKind } from "../kinds";
import type { LifecycleContext } from "../lifecycle/context";
import { accountOf, bestEffort, type CallJournal, callJournal, type JournaledKind, when } from "./journalRun";
import type { JournalEntry } from "./store";

/** The engine holds `id`: its entry goes. Returns the URN's entry recording another object (an unrecorded replacement). */
export function settleNamed(ctx: LifecycleContext, journal: CallJournal, kind: ResourceKind, id: string) {
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

/** After a `diff` that replaces nothing, no create takes `entry`'s object over: say it stays outside the stack, forget it. */
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

/** A `Check` showing the state holds the URN: a first create's entry (`replacing: false`) goes, else a replacement would take it over. */
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

/** The `delete` ending a create-before-delete replacement (this process created another id): the new object's entry goes. */
export async function settleReplacementDelete(ctx: LifecycleContext, journal: CallJournal, id: string): Promise<void> {
  const created = ctx.createSession.createdFor(ctx.urn);
  if (created === undefined || created.id === id) return;
  await bestEffort(() => journal().removeIfId(ctx.urn!, created.id));
}

/** The engine registered `urn` as `id` (outside previews): the entry goes, so a later `--target-replace` takes nothing over. */
export async function settleRecorded(settings: Pick<Settings, "journalDir" | "limitsUrl">, urn: string, id: string): Promise<void> {
  await bestEffort(() => callJournal(settings)().removeIfId(urn, id));
}

/** True when the engine deletes what this process's create took over (a `--target-replace` after an interrupted create): kept, warned. */
export async function refusedDelete(ctx: LifecycleContext, definition: JournaledKind, id: string): Promise<boolean> {
  const created = ctx.createSession.createdFor(ctx.urn);
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
