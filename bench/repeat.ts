/**
 * `--repeat N`: one workload run N times, folded into one line of the JSON. The bench's noise is
 * large next to the differences between clients (one run in a few can take far longer than the
 * next), so a single run proves little; the median does, and min/max show how wide the runs spread.
 */

/** The smallest, the median and the largest of several runs' values. */
export interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

/**
 * Median of a non-empty list: the middle value, or the mean of the two middle ones (to 12
 * significant digits, so the mean of 0.1 and 0.2 prints as 0.15, not 0.15000000000000002).
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Number(((sorted[middle - 1]! + sorted[middle]!) / 2).toPrecision(12));
}

export function spreadOf(values: readonly number[]): Spread {
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

/** The numbers of one client on one workload, as one run reports them. */
export type RunNumbers = Readonly<Record<string, number>>;

/**
 * Folds one client's runs: each number becomes its median, except `failures`, which takes the worst
 * run (a target of no failures holds in every run, not in the typical one); `spread` keeps min,
 * median and max of each number.
 */
export function foldRuns<T extends RunNumbers>(
  runs: readonly T[],
): T & { readonly runs: number; readonly spread: Record<keyof T, Spread> } {
  if (runs.length === 0) throw new Error("no runs to fold");
  const keys = Object.keys(runs[0]!) as (keyof T & string)[];
  const folded: Record<string, number> = {};
  const spread = {} as Record<keyof T, Spread>;
  for (const key of keys) {
    const values = runs.map((run) => run[key] as number);
    spread[key] = spreadOf(values);
    folded[key] = key === "failures" ? spread[key].max : spread[key].median;
  }
  return { ...(folded as T), runs: runs.length, spread };
}
