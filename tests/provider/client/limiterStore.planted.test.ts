/**
 * A shared limiter state that a broken or hostile writer planted, in the machine's state file and
 * in a real `redis-server` (tests/helpers/redisServer.ts): a pause until 1e300, a full window
 * ending in 1e300, an in-flight entry whose lease never lapses. Every process of the account must
 * still send within a bounded time (a few windows), never hang or spin.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RATE_CLASSES } from "../../../provider/catalog/rateClasses";
import { type Permit, RateLimiter } from "../../../provider/client";
import { accountKey } from "../../../provider/client/accountKey";
import { epochClock } from "../../../provider/client/clock";
import { FileLimiterStore, sharedStateName } from "../../../provider/client/fileLimiterStore";
import { emptyLimiterState, type LimiterState } from "../../../provider/client/limiterStore";
import { RateClassWindows } from "../../../provider/client/rateClassWindows";
import { RedisLimiterStore } from "../../../provider/client/redisLimiterStore";
import { useRedisServer } from "../../helpers/redisServer";
import { FakeClock, flush } from "../../helpers/fakeClock";
import { waitFor } from "../../helpers/waitFor";

const FAR = 1e300;

/** A state whose class C steady window is full and ends at `end` (the other fields as a limiter writes them). */
function fullSteadyWindow(end: number): LimiterState {
  const windows = new RateClassWindows(RATE_CLASSES.C, { burstMs: 1_000, steadyMs: 60_000 }, 20);
  const exported = windows.exportState();
  return {
    ...emptyLimiterState(),
    classes: { C: { ...exported, steady: { ...exported.steady, generation: 1, end, used: 150, own: 150, synced: true } } },
  };
}

/** The states a writer may plant, by what they would hold. */
const PLANTED: readonly [string, LimiterState][] = [
  ["a pause until 1e300", { ...emptyLimiterState(), pausedUntil: FAR }],
  ["a full steady window ending in 1e300", fullSteadyWindow(FAR)],
];

describe("a planted state file", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "adplatform-planted-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each(PLANTED)("with %s delays a call by a few steady windows at most", async (_name, planted) => {
    const path = join(dir, "account.json");
    writeFileSync(path, JSON.stringify(planted));
    const clock = new FakeClock(1_000);
    const limiter = new RateLimiter({ clock, sharedStore: new FileLimiterStore(path) });
    const admitted: Permit[] = [];
    void limiter.acquire({ rateClass: "C", cost: 1 }).then((permit) => admitted.push(permit));
    await flush();
    const { pausedForMs, windows } = limiter.snapshot();
    expect(pausedForMs).toBeLessThanOrEqual(60_000);
    expect(windows.C?.steady.endsInMs ?? 0).toBeLessThanOrEqual(75_000);
    for (let t = 0; t < 3 * 60_000 && admitted.length === 0; t += 1_000) await clock.advance(1_000);
    expect(admitted).toHaveLength(1);
  });
});

describe("a planted Redis state", () => {
  const redis = useRedisServer();
  let accounts = 0;

  /** A store of a fresh account holding `planted`, with leases and windows scaled down. */
  async function plantedStore(planted: LimiterState): Promise<RedisLimiterStore> {
    const store = new RedisLimiterStore(redis.server.url, sharedStateName(accountKey("http://127.0.0.1:1", `planted-${++accounts}`)), {
      leaseMs: 100,
    });
    await redis.raw.set(store.stateKey, JSON.stringify(planted), "PX", 60_000);
    return store;
  }

  const BURST_MS = 20;
  const STEADY_MS = 200;
  /** A limiter on `store` with windows scaled down (the planted times are far beyond any scale). */
  const limiterOn = (store: RedisLimiterStore) =>
    new RateLimiter({ clock: epochClock, burstWindowMs: BURST_MS, steadyWindowMs: STEADY_MS, sharedStore: store });

  it.each([
    ...PLANTED,
    [
      "a request in flight whose lease ends in 1e300",
      {
        ...emptyLimiterState(),
        inFlight: { "999999:1:elsewhere/999999/00000000": 1_000 },
        leases: { "999999:1:elsewhere/999999/00000000": FAR },
      },
    ] as [string, LimiterState],
  ])("with %s lets a call through within a few windows", async (_name, planted) => {
    const store = await plantedStore(planted);
    const limiter = limiterOn(store);
    let admitted = false;
    const permit = limiter.acquire({ rateClass: "C", cost: 1 }).then((p) => {
      admitted = true;
      return p;
    });
    await waitFor(() => admitted);
    (await permit).release();
    const written = await store.load();
    expect(written.pausedUntil === null || written.pausedUntil < FAR).toBe(true);
    for (const lease of Object.values(written.leases ?? {})) expect(lease).toBeLessThan(FAR);
    await store.flush(); // the release's transaction lands before the next test's server state
  });
});
