/**
 * In-flight coalescing and a per-run cache for data-source reads.
 *
 * A Pulumi program often asks for the same zone or the country list many times, and every request
 * spends the account's budget (spec, Limits 3: 150 per minute). So the first caller of a key starts
 * the read and every later caller, concurrent or not, shares its promise: 100 concurrent
 * `getCountries()` make one request. A read that fails is dropped from the cache so the next caller
 * tries again (a 429 given up on, or a network blip, must not stick for the whole run).
 *
 * "Per run" is the life of the program process: the Pulumi CLI starts a fresh Node process for every
 * `preview` / `up` / `refresh`, so a module-level cache never outlives one run. A process that runs
 * several programs (the Automation API's inline programs, tests) calls `clear()` between runs.
 */
export class ReadCache {
  private readonly entries = new Map<string, Promise<unknown>>();

  /**
   * The value cached under `key`, or the value `load` produces; concurrent callers of one key share
   * one `load`. A rejected load is removed, so it is retried by the next caller.
   */
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

  /** Forgets every cached and in-flight read (in-flight ones still settle for their callers). */
  clear(): void {
    this.entries.clear();
  }

  /** Number of cached or in-flight keys. */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * The cache key of one read: every input that changes the answer, in a canonical order. `account`
 * is the connection's `accountKey` (a hash, never the token itself; the key the client and its
 * rate limiter are kept under), `fields` are sorted and deduplicated (the same subresources in
 * another order are the same read), query parameters are sorted by name.
 */
export function readKey(parts: {
  account: string;
  operation: string;
  pathParams: Readonly<Record<string, string>>;
  fields: readonly string[];
  query: Readonly<Record<string, string>>;
}): string {
  const sortedEntries = (o: Readonly<Record<string, string>>) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([
    parts.account,
    parts.operation,
    sortedEntries(parts.pathParams),
    [...new Set(parts.fields)].sort(),
    sortedEntries(parts.query),
  ]);
}
