/**
 * Says, before it happens, that a create will take an existing object over instead of making one:
 * the engine shows every create as `+ create`, adoption included, so without this a preview of
 * `adoptId: "701"` and one of a new group look the same.
 *
 * `check` is where it is said: the engine calls it once per resource in every run, the preview's
 * and the update's alike, and its old inputs tell whether a create lies ahead (none: the state holds
 * no resource; for the kinds whose declared ids always adopt, other ids: a replacement adopts
 * another object). `diff` is not called for a resource to be created, and `create` runs too late
 * for a preview. The notice is an info message on the resource; a check that fails says nothing.
 */
import { requestLine } from "../../catalog";
import type { ResourceKind } from "../kinds";
import { RESOURCE_DEFINITIONS } from "../definitions";
import { isUnknown } from "../inputs/unknowns";
import type { ResourceLifecycle } from "./contract";

type Inputs = Record<string, unknown>;

/** A plain, known string id; empty, absent or unknown-in-preview values name nothing yet. */
const known = (value: unknown): string | undefined => (typeof value === "string" && value !== "" && !isUnknown(value) ? value : undefined);

/** The adopted object's id in `inputs` (the declared ids joined by `/`), or undefined when the create makes a new object. */
function adoptedId(kind: ResourceKind, inputs: Inputs): string | undefined {
  const { adoption } = RESOURCE_DEFINITIONS[kind];
  const ids = (adoption.by === "adoptId" ? ["adoptId"] : adoption.ids).map((field) => known(inputs[field]));
  return ids.every((id) => id !== undefined) ? ids.join("/") : undefined;
}

/** The notice for checked `news` of `kind` given the old inputs `olds`, or undefined when no create adopts. */
export function adoptionNotice(kind: ResourceKind, olds: Inputs, news: Inputs): string | undefined {
  const { noun, adoption } = RESOURCE_DEFINITIONS[kind];
  const id = adoptedId(kind, news);
  if (id === undefined) return undefined;
  const created = Object.keys(olds).length === 0;
  // The kinds whose declared ids always adopt: a replacement for other ids adopts another object.
  const adoptsAnother = adoption.by === "ids" && !created && adoptedId(kind, olds) !== id;
  if (!created && !adoptsAnother) return undefined;
  return adoption.by === "adoptId"
    ? `${kind} ${JSON.stringify(news.name)}: adopts the existing ${noun} ${id} instead of creating one (${adoption.notice})`
    : `${kind} ${JSON.stringify(id)}: adopts the existing ${noun} ${id}; nothing is created (${requestLine(adoption.request)} sets the declared fields)`;
}

/** `lifecycle` with `check` telling the user (`ctx.info`) when the create ahead adopts an existing object. */
export function announcingAdoption<I, O>(kind: ResourceKind, lifecycle: ResourceLifecycle<I, O>): ResourceLifecycle<I, O> {
  return {
    ...lifecycle,
    async check(olds, news, ctx) {
      const result = await lifecycle.check(olds, news, ctx);
      if (result.failures.length === 0) {
        const notice = adoptionNotice(kind, olds, result.inputs as Inputs);
        if (notice !== undefined) await ctx.info(notice);
      }
      return result;
    },
  };
}
