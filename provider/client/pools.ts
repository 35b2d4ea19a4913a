/** One keep-alive undici `Pool` per origin per process, so connections are reused across accounts and calls. */
import { Pool } from "undici";

const pools = new Map<string, Pool>();

/** The pool of `origin`; `connectTimeoutMs` is the pool's, so pools with different ones are kept apart. */
export function sharedPool(origin: string, connectTimeoutMs: number): Pool {
  const key = `${origin} ${connectTimeoutMs}`;
  const pool = pools.get(key) ?? new Pool(origin, { connectTimeout: connectTimeoutMs });
  pools.set(key, pool);
  return pool;
}

/** Closes every pool (in-flight requests finish) and forgets them. */
export async function closePools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.close().catch(() => pool.destroy())));
}
