/**
 * The one diff engine: declared fields only, each by its equivalence. `changes` is always a boolean (else the
 * engine diffs on its own); `deleteBeforeReplace` stays false (nothing is deleted, so old and new coexist).
 */
import { deepEquivalent, isAbsent, type Equivalence } from "./equivalence";
import { containsUnknown } from "./unknowns";
import type { DiffResult } from "../lifecycle/contract";

/** How one input field is compared (`deepEquivalent` by default), and whether a change replaces. */
export interface FieldRule {
  readonly equivalent?: Equivalence;
  readonly replaces?: boolean;
  /** The value an absent field stands for (its input default). */
  readonly absentMeans?: unknown;
}

/** By SDK input name. */
export type DiffRules = Readonly<Record<string, FieldRule>>;

/** `DiffResult` plus which fields changed or were removed, for the warnings and PATCH. */
export interface InputDiff extends DiffResult {
  readonly replaces: string[];
  /** Including those unknown during preview. */
  readonly changed: string[];
  readonly removed: string[];
  readonly deleteBeforeReplace: false;
}

/** Compares the state `olds` (which holds the old inputs) with checked `news`. */
export function diffInputs(rules: DiffRules, olds: Record<string, unknown>, news: Record<string, unknown>): InputDiff {
  const changed: string[] = [];
  const removed: string[] = [];
  const replaces: string[] = [];
  for (const [field, rule] of Object.entries(rules)) {
    const before = isAbsent(olds[field]) ? rule.absentMeans : olds[field];
    const after = isAbsent(news[field]) ? rule.absentMeans : news[field];
    const equivalent = rule.equivalent ?? deepEquivalent;
    // An unknown value is a possible change (and replace).
    const same = !containsUnknown(after) && equivalent(before, after);
    if (same) continue;
    changed.push(field);
    if (!isAbsent(before) && isAbsent(after)) removed.push(field);
    if (rule.replaces) replaces.push(field);
  }
  return { changes: changed.length > 0, replaces, changed, removed, deleteBeforeReplace: false };
}
