/**
 * Objects a replacement leaves on the platform (the API deletes nothing), said by `diff` in every preview:
 * `leftBehind: warn` (default) warns; `refuse` fails unless the `approveLeavingId` input (never compared,
 * seen by a reviewer in the program's diff) names the object. Left objects go on a durable list.
 */
import { ApiConfigError } from "../../client";
import { LeftBehindRefusedError } from "../../errors";
import { accountOf } from "../journal/journalRun";
import { leftBehindWriter, type LeftBehindObject, stackOfUrn } from "../journal/store";
import type { Settings } from "../../configuration";
import { APPROVAL_INPUT } from "../inputs/leftBehindApproval";
import type { LifecycleContext } from "./context";

export const LEFT_BEHIND_MODES = ["warn", "refuse"] as const;
export type LeftBehindMode = (typeof LEFT_BEHIND_MODES)[number];

const SETTING = "adplatform:leftBehind";

/** Why `value` is not a usable `leftBehind`, or undefined (absent included). */
export function leftBehindRefusal(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && (LEFT_BEHIND_MODES as readonly string[]).includes(value.trim())) return undefined;
  return `${SETTING} must be one of ${LEFT_BEHIND_MODES.map((mode) => `"${mode}"`).join(", ")}, got ${JSON.stringify(value)}`;
}

/** The mode of `settings`; throws naming the setting when unusable (check refuses it first). */
export function leftBehindMode(settings: Settings): LeftBehindMode {
  const refusal = leftBehindRefusal(settings.leftBehind);
  if (refusal !== undefined) throw new ApiConfigError("leftBehind", refusal);
  return (settings.leftBehind?.trim() as LeftBehindMode | undefined) ?? "warn";
}

/** What `diff` knows about a replacement: `nouns` is plural, `label` names the old object, `news` may approve. */
export interface Replacement {
  readonly kind: string;
  readonly nouns: string;
  readonly label: string;
  readonly id: string;
  readonly name?: string;
  /** The fields whose change replaces it (or may, when unknown in a preview). */
  readonly fields: readonly string[];
  readonly news: Readonly<Record<string, unknown>>;
}

/** Says which object a replacement leaves; in `refuse` mode without the approval, throws `LeftBehindRefusedError`. */
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

/** package.json `bin`. */
export const LIST_COMMAND = "adplatform-left-behind";

export type Leaving = Pick<LeftBehindObject, "kind" | "id" | "name" | "change" | "replacedBy" | "record"> & { readonly leftAt?: number };

/** Adds `left` to the list (../journal/store/leftBehindList.ts); true when it did. A failure warns; the change goes on. */
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

const noted = new Set<string>();

/** Notes the stack once per process, so the list tells one that left nothing from one never seen. Silent. */
export async function noteStack(ctx: LifecycleContext): Promise<void> {
  if (ctx.urn === undefined) return;
  try {
    const stack = { account: accountOf(ctx), ...stackOfUrn(ctx.urn) };
    const key = `${ctx.settings.journalDir}\u0000${ctx.settings.limitsUrl ?? ""}\u0000${JSON.stringify(stack)}`;
    if (noted.has(key)) return;
    noted.add(key);
    await leftBehindWriter(ctx.settings).noteStack(stack);
  } catch {
    // said when an object is left
  }
}
