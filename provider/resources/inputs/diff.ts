/**
 * The one diff engine of the four resources: compares the declared input fields of the old state
 * with the new inputs, field by field, with each field's notion of equivalence.
 *
 * Engine facts it honours: `changes` is always a
 * boolean (an undecided answer would make the engine fall back to its own diff); `replaces` names
 * the fields the API cannot update; `deleteBeforeReplace` stays false (nothing is deleted on the
 * platform, so old and new can coexist). Only declared fields are compared, so outputs the API
 * returned (`companyId`, `size`) and any key a face keeps in the state never cause a diff on their own.
 */
import { deepEquivalent, isAbsent, type Equivalence } from "./equivalence";
import { containsUnknown } from "./unknowns";
import type { DiffResult } from "../lifecycle/contract";

/** How one input field is compared and what a change to it means. */
export interface FieldRule {
  /** Equality of old and new values; `deepEquivalent` when omitted. */
  readonly equivalent?: Equivalence;
  /** True when the API cannot change this field on an existing object: a change replaces it. */
  readonly replaces?: boolean;
  /** The value an absent field stands for (its input default), so absent and default are equal. */
  readonly absentMeans?: unknown;
}

/** The fields of one resource that `diff` compares, by SDK (camelCase) input name. */
export type DiffRules = Readonly<Record<string, FieldRule>>;

/** `DiffResult` plus which fields changed, for the lifecycle's warnings and PATCH. */
export interface InputDiff extends DiffResult {
  readonly replaces: string[];
  /** Fields whose value changed or may change (unknown during preview). */
  readonly changed: string[];
  /** Fields set in the old state and absent from the new inputs. */
  readonly removed: string[];
  readonly deleteBeforeReplace: false;
}

/** Compares `olds` (the state: old outputs, which hold the old inputs) with `news` (checked inputs). */
export function diffInputs(rules: DiffRules, olds: Record<string, unknown>, news: Record<string, unknown>): InputDiff {
  const changed: string[] = [];
  const removed: string[] = [];
  const replaces: string[] = [];
  for (const [field, rule] of Object.entries(rules)) {
    const before = isAbsent(olds[field]) ? rule.absentMeans : olds[field];
    const after = isAbsent(news[field]) ? rule.absentMeans : news[field];
    const equivalent = rule.equivalent ?? deepEquivalent;
    // An unknown value may turn out to be anything: a possible change (and replace) in preview.
    const same = !containsUnknown(after) && equivalent(before, after);
    if (same) continue;
    changed.push(field);
    if (!isAbsent(before) && isAbsent(after)) removed.push(field);
    if (rule.replaces) replaces.push(field);
  }
  return { changes: changed.length > 0, replaces, changed, removed, deleteBeforeReplace: false };
}
