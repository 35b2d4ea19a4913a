/**
 * In-flight coalescing and a per-run cache for data-source reads. Every request spends the account's
 * budget (spec, Limits 3: 150 per minute), so every caller of a key shares the first one's promise:
 * 100 concurrent `getCountries()` make one request. A failed read is dropped, so a 429 or a network
 * blip does not stick for the run. A run is the program's process (the CLI starts one per `up`).
 */
import type { ReadRequest } from "./arguments";

export class ReadCache {
  private readonly entries = new Map<string, Promise<unknown>>();

  /** The value cached under `key`, or the one `load` produces; a rejected load is removed. */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached) return cached as Promise<T>;
    const pending = load();
    this.entries.set(key, pending);
    pending.catch(() => {
      // Only evict our own entry: a `clear()` and a new load may have replaced it meanwhile.
      if (this.entries.get(key) === pending) this.entries.delete(key);
    });
    return pending;
  }

  /** In-flight reads still settle for their callers. */
  clear(): void {
    this.entries.clear();
  }
}

/** Every input that changes the answer, canonically; `account` is the `accountKey` (a hash, never the token). */
export function readKey(parts: { account: string; operation: string } & Pick<ReadRequest, "pathParams" | "fields" | "query">): string {
  const sortedEntries = (o: Readonly<Record<string, string>>) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([
    parts.account,
    parts.operation,
    sortedEntries(parts.pathParams),
    [...new Set(parts.fields)].sort(),
    sortedEntries(parts.query),
  ]);
}
