/** Picking the input fields out of a resource's state (outputs hold the inputs plus API fields). */
import type { DiffRules } from "./diff";
import { isAbsent } from "./equivalence";

/**
 * The declared inputs found in `props`: every field of `rules` plus `extra` ones (e.g. `adoptId`),
 * absent ones left out. `read` returns these as `inputs` so diffs after a refresh stay accurate.
 */
export function inputFields(
  rules: DiffRules,
  props: Record<string, unknown>,
  extra: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of [...Object.keys(rules), ...extra]) {
    if (!isAbsent(props[field])) out[field] = props[field];
  }
  return out;
}
