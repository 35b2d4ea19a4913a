/**
 * Objects a change leaves on the platform. The API deletes nothing, and bid strategies and campaign
 * groups cannot be updated: a replacement creates a new object and the old one stays live (so does
 * a variation's or modifier's old object when its ids change). `diff` runs in every preview, with
 * the old state's id and name, so it says so there, before anything is sent:
 * - `leftBehind: warn` (the default): a warning names the kind, id and name that will stay and why;
 * - `leftBehind: refuse`: the diff fails, naming the object, unless the resource's
 *   `approveLeavingId` input names that object's id. The approval is an input a reviewer sees in
 *   the program's diff; it is never compared, so setting or removing it causes no replace.
 * Once left, the object is added to a durable list (`listLeftBehind`) that `adplatform-left-behind`
 * prints and where a person marks it cleaned up.
 */
import { ApiConfigError } from "../../client";
import { LeftBehindRefusedError } from "../../errors";
import { accountOf } from "../journal/journalRun";
import { leftBehindWriter, type LeftBehindObject, stackOfUrn } from "../journal/store";
import type { Settings } from "../../configuration";
import { APPROVAL_INPUT } from "../inputs/leftBehindApproval";
import type { LifecycleContext } from "./context";

/** The setting's values. */
export const LEFT_BEHIND_MODES = ["warn", "refuse"] as const;
/** What a change that leaves an object behind does. */
export type LeftBehindMode = (typeof LEFT_BEHIND_MODES)[number];

const SETTING = "adplatform:leftBehind";

/** Why `value` is not a usable `leftBehind`, or undefined when it is (absent included). */
export function leftBehindRefusal(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && (LEFT_BEHIND_MODES as readonly string[]).includes(value.trim())) return undefined;
  return `${SETTING} must be one of ${LEFT_BEHIND_MODES.map((mode) => `"${mode}"`).join(", ")}, got ${JSON.stringify(value)}`;
}

/** The mode of `settings`. Throws naming the setting when it is not one of the modes (check refuses it first). */
export function leftBehindMode(settings: Settings): LeftBehindMode {
  const refusal = leftBehindRefusal(settings.leftBehind);
  if (refusal !== undefined) throw new ApiConfigError("leftBehind", refusal);
  return (settings.leftBehind?.trim() as LeftBehindMode | undefined) ?? "warn";
}

/** What `diff` knows about a replacement. */
export interface Replacement {
  /** The resource kind and its object's noun, plural (`bid strategies`). */
  readonly kind: string;
  readonly nouns: string;
  /** How messages name the old object (`BidStrategy "Night bids" (id 601)`). */
  readonly label: string;
  /** The old object's id and name. */
  readonly id: string;
  readonly name?: string;
  /** The fields whose change replaces it (or may, when unknown in a preview). */
  readonly fields: readonly string[];
  /** The new inputs, which may carry the approval. */
  readonly news: Readonly<Record<string, unknown>>;
}

/**
 * Says, in a diff that replaces, which object stays on the platform; in the `refuse` mode without
 * the approval, throws `LeftBehindRefusedError` instead. Sends nothing.
 */
export async function sayLeftBehind(ctx: LifecycleContext, replacement: Replacement): Promise<void> {
  const { kind, nouns, label, id, name, fields } = replacement;
  const why =
    `this change replaces it (${fields.join(", ")} cannot be updated) and the API cannot delete ${nouns}, ` +
    `so ${kind} ${id}${name === undefined ? "" : ` ${JSON.stringify(name)}`} stays on the platform; ` +
    `Pulumi only removes it from the stack's state.`;
  const approved = replacement.news[APPROVAL_INPUT];
  if (leftBehindMode(ctx.settings) === "refuse" && approved !== id) {
    const mismatch = typeof approved === "string" && approved !== "" ? ` (${APPROVAL_INPUT} names ${approved}, not ${id})` : "";
    throw new LeftBehindRefusedError(
      {
        subject: label,
        reason: `refused: ${why} ${SETTING} is "refuse" and this resource does not approve leaving it${mismatch}; nothing was sent.`,
        remedy: `To approve, set ${APPROVAL_INPUT}: "${id}" on this resource (a reviewer sees it in the program's diff), or revert the change.`,
      },
      [{ kind, id, ...(name === undefined ? {} : { name }) }],
    );
  }
  await ctx.warn(`${label}: ${why}${approved === id ? ` Approved by ${APPROVAL_INPUT}.` : ""}`);
}

/** The command that lists what `listLeftBehind` records (package.json `bin`). */
export const LIST_COMMAND = "adplatform-left-behind";

/** What a change left, as the lifecycle knows it (the rest comes from the context). */
export type Leaving = Pick<LeftBehindObject, "kind" | "id" | "name" | "change" | "replacedBy" | "record"> & { readonly leftAt?: number };

/**
 * Adds `left` to the list of objects the stack left on the platform (../journal/store/leftBehindList.ts), so
 * a person finds it after the run's log is gone. True when it did; when the list cannot be written
 * (no URN, no usable place), a warning says what was not recorded and the change goes on: the
 * object is already left, and the warning names it.
 */
export async function listLeftBehind(ctx: LifecycleContext, left: Leaving): Promise<boolean> {
  const what = `${left.kind} ${left.id ?? `of record ${left.record}`}`;
  if (ctx.urn === undefined) return false;
  const writer = leftBehindWriter(ctx.settings);
  try {
    const { leftAt, ...object } = left;
    await writer.put({
      format: 1,
      account: accountOf(ctx),
      urn: ctx.urn,
      ...stackOfUrn(ctx.urn),
      leftAt: leftAt ?? ctx.createSession.clock.now(),
      ...object,
    });
    return true;
  } catch (error) {
    await ctx.warn(
      `${what} was not added to the list of objects left on the platform (${writer.where}): ${error instanceof Error ? error.message : String(error)}.`,
    );
    return false;
  }
}

/** Stacks noted in this process, so each is written once. */
const noted = new Set<string>();

/**
 * Notes that the context's stack runs with the list's store, once per process, so the list tells a
 * stack that left nothing from one it never saw. Silent: a place that cannot be written now is said
 * when an object is left.
 */
export async function noteStack(ctx: LifecycleContext): Promise<void> {
  if (ctx.urn === undefined) return;
  try {
    const stack = { account: accountOf(ctx), ...stackOfUrn(ctx.urn) };
    const key = `${ctx.settings.journalDir}\u0000${ctx.settings.limitsUrl ?? ""}\u0000${JSON.stringify(stack)}`;
    if (noted.has(key)) return;
    noted.add(key);
    await leftBehindWriter(ctx.settings).noteStack(stack);
  } catch {
    // see above
  }
}
