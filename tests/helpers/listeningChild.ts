/**
 * A process that listened for releases on a Redis limits URL, as a limiter waiting for the cap does (a
 * `RedisLimiterStore` watch, ended once its work is done), and how long it lived after that: a store's connections,
 * its release subscriber's included, keep no process alive.
 */
import { join } from "node:path";
import { runNodeScript } from "./nodeScript";

const STORE = join(__dirname, "..", "..", "bin", "provider", "limiter", "redisLimiterStore.js");

/** Runs the child on `url` (given in its environment, never its arguments); `lingeredMs`: from its last line to its exit. */
export async function listenThenExit(url: string): Promise<{ code: number | null; stderr: string; lingeredMs: number }> {
  const script = `
    const { RedisLimiterStore } = require(${JSON.stringify(STORE)});
    const store = new RedisLimiterStore(process.env.LIMITS_URL);
    (async () => {
      await store.update("exit-test", () => ({ classes: {}, tickets: {}, cap: { value: 4, ceiling: null, loweredAt: null, good: 0 } }));
      const end = store.watch("exit-test", "me", () => undefined);
      await new Promise((resolve) => setTimeout(resolve, 500)); // subscribed by then
      end();
      console.log(Date.now());
    })();`;
  const run = await runNodeScript(script, [], { env: { ...process.env, LIMITS_URL: url } });
  return { code: run.code, stderr: run.stderr, lingeredMs: Date.now() - Number(run.stdout.trim()) };
}
