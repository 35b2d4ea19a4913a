/**
 * Says that a create will adopt an existing object (the engine shows `+ create`): in `check`, called in
 * every run, preview included, whose old inputs tell whether a create lies ahead (`create` is too late).
 */
import { requestLine } from "../../catalog";
import type { ResourceKind } from "../kinds";
import { RESOURCE_DEFINITIONS } from "../definitions";
import { isUnknown } from "../inputs/unknowns";
import type { ResourceLifecycle } from "./contract";

type Inputs = Record<string, unknown>;

/** A known, non-empty string id. */
const known = (value: unknown): string | undefined => (typeof value === "string" && value !== "" && !isUnknown(value) ? value : undefined);

/** The adopted object's id in `inputs` (declared ids joined by `/`), or undefined for a new object. */
function adoptedId(kind: ResourceKind, inputs: Inputs): string | undefined {
  const { adoption } = RESOURCE_DEFINITIONS[kind];
  const ids = (adoption.by === "adoptId" ? ["adoptId"] : adoption.ids).map((field) => known(inputs[field]));
  return ids.every((id) => id !== undefined) ? ids.join("/") : undefined;
}

/** The notice for checked `news`, or undefined when no create adopts. */
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
