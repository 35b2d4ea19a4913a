/**
 * Objects a change leaves on the platform. The API deletes nothing, and bid strategies and campaign
 * groups cannot be updated: a replacement creates a new object and the old one stays live (so does
 * a variation's or modifier's old object when its ids change). `diff` runs in every preview, with
 * the old state's id and name, so it says so there, before anything is sent:
 * - `leftBehind: warn` (the default): a warning names the kind, id and name that will stay and why;
 * - `leftBehind: refuse`: the diff fails, naming the object, unless the resource's
 *   `approveLeavingId` input names that object's id. The approval is an input a reviewer sees in
 *   the program's diff; it is never compared, so setting or removing it causes no replace.
 */
import { ApiConfigError } from "../../client";
import { LeftBehindRefusedError } from "../../errors";
import type { Settings } from "../../configuration/settings";
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
