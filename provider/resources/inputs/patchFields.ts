/** spec, Endpoints 1 and 4: "omitted fields stay unchanged": an update sends only changed fields; a removed one cannot be unset. */
import type { z } from "zod";
import { toWire } from "../../wire";
import type { LifecycleContext } from "../lifecycle/context";
import { isAbsent } from "./equivalence";
import type { InputDiff } from "./diff";

/** The wire PATCH body that sets `fields` of checked inputs. */
export function patchBody<S extends z.ZodObject>(update: S, inputs: object, fields: readonly string[]): z.input<S> {
  return toWire(update, Object.fromEntries(fields.map((field) => [field, (inputs as Record<string, unknown>)[field]])));
}

/** The settable fields set in `inputs` (the body of the adopting PATCH in `create`). */
export function declaredFields<F extends string>(settable: readonly F[], inputs: Record<string, unknown>): F[] {
  return settable.filter((field) => !isAbsent(inputs[field]));
}

/** The settable fields that changed and are still declared. */
export function changedFields<F extends string>(settable: readonly F[], diff: InputDiff): F[] {
  return settable.filter((field) => diff.changed.includes(field) && !diff.removed.includes(field));
}

/** Warns that fields removed from the program keep their values on the platform. */
export async function warnRemovedFields(ctx: LifecycleContext, label: string, settable: readonly string[], diff: InputDiff): Promise<void> {
  const removed = diff.removed.filter((field) => settable.includes(field));
  if (removed.length === 0) return;
  const list = removed.map((f) => `\`${f}\``).join(", ");
  await ctx.warn(
    `${label}: ${list} ${removed.length === 1 ? "was" : "were"} removed from the program, but the API cannot ` +
      `unset a field (omitted fields stay unchanged), so the platform keeps the last value.`,
  );
}
