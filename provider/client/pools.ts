/**
 * One keep-alive undici `Pool` per origin per process, shared by every client of that origin, so
 * connections are reused across accounts and calls instead of opened per request.
 */
import { Pool } from "undici";

const pools = new Map<string, Pool>();

/**
 * The shared pool of `origin` (`scheme://host:port`). `connectTimeoutMs` is a property of the
 * pool's connections, so pools with different connect timeouts are kept apart.
 */
export function sharedPool(origin: string, connectTimeoutMs: number): Pool {
  const key = `${origin} ${connectTimeoutMs}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Pool(origin, { connectTimeout: connectTimeoutMs });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes every pool (graceful: in-flight requests finish) and forgets them. */
export async function closePools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.close().catch(() => pool.destroy())));
}
