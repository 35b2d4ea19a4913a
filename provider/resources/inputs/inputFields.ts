/** Picking the input fields out of a resource's state (outputs hold the inputs plus API fields). */
import type { ReadResult } from "../lifecycle/contract";
import type { DiffRules } from "./diff";
import { isAbsent } from "./equivalence";

/** The declared inputs in `props`: the fields of `rules` plus `extra` (e.g. `adoptId`), absent ones left out. */
export function inputFields(rules: DiffRules, props: Record<string, unknown>, extra: readonly string[] = []): Record<string, unknown> {
  const declared = [...Object.keys(rules), ...extra].filter((field) => !isAbsent(props[field]));
  return Object.fromEntries(declared.map((field) => [field, props[field]]));
}

/** `read` of a kind the API cannot read (spec: no GET): the state as last written, its declared fields as `inputs`. */
export function keptStateRead<Inputs, Outputs>(
  rules: DiffRules,
  extra: readonly string[] = [],
): (id: string, state: Outputs | undefined) => Promise<ReadResult<Inputs, Outputs>> {
  return async (id, state) => {
    const outputs = (state ?? {}) as Record<string, unknown>;
    return { id, outputs: outputs as Outputs, inputs: inputFields(rules, outputs, extra) as Inputs };
  };
}
