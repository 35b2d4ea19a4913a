/**
 * The limiter's fallback ladder (`sharedStoreFor`): Redis at the limits URL while it works, the
 * machine's file store when that Redis cannot be used (down, unreachable, refusing authentication,
 * gone mid-run, not a Redis URL), with one warning per URL naming it without its password, and no
 * failed call. Against real `redis-server` processes. Limiters on the registry are in
 * `limiter.sharedStore.test.ts`.
 */
import { existsSync } from "node:fs";
import { Redis } from "ioredis";
import { RATE_CLASSES } from "../../../provider/catalog/rateClasses";
import { epochClock } from "../../../provider/infrastructure/clock";
import { RateLimiter } from "../../../provider/limiter/limiter";
import { livenessMs, type ModelConfig } from "../../../provider/limiter/limiterModel";
import { freshState, type LimiterState, carriedState } from "../../../provider/limiter/limiterState";
import { carriedOnLadder, sharedStoreFor } from "../../../provider/limiter/limiterRegistry";
import { FallbackLadder } from "../../../provider/infrastructure/fallbackLadder";
import { FileLimiterStore, type LimiterStore, sharedStateDirectory, sharedStateName } from "../../../provider/limiter/limiterStores";
import { redisStateKey } from "../../../provider/limiter/redisLimiterStore";
import { closeRedisConnections } from "../../../provider/infrastructure/redis";
import { setFallbackWarningSink } from "../../../provider/infrastructure/warnings";
import { freePort, startRedisServer } from "../../helpers/redisServer";
import { REAL_WINDOWS } from "../../helpers/limiterConfig";
import { waitFor } from "../../helpers/waitFor";

const CONFIG: ModelConfig = REAL_WINDOWS;

let warnings: string[] = [];
let previousSink: (message: string) => void;

beforeEach(() => {
  warnings = [];
  previousSink = setFallbackWarningSink((message) => warnings.push(message));
});
afterEach(() => setFallbackWarningSink(previousSink));
afterAll(() => closeRedisConnections());

let accounts = 0;
const freshName = () => sharedStateName(`ladder-account-${process.pid}-${++accounts}`);
/** One decision on `store` for the state `name`. */
const touch = (store: LimiterStore, name: string) => Promise.resolve(store.update(name, (state) => state ?? freshState(CONFIG)));
const inFile = (name: string) => existsSync(new FileLimiterStore(sharedStateDirectory()).pathOf(name));

describe("the limiter's fallback ladder", () => {
  it("uses the file store without a URL", async () => {
    const name = freshName();
    await touch(sharedStoreFor(undefined), name);
    expect(inFile(name)).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("uses Redis when the URL's password is right, without a warning", async () => {
    const server = await startRedisServer({ password: "right horse" });
    const raw = new Redis(server.url);
    try {
      const name = freshName();
      await touch(sharedStoreFor(server.url), name);
      expect(await raw.exists(redisStateKey(name))).toBe(1);
      expect(inFile(name)).toBe(false);
      expect(warnings).toEqual([]);
    } finally {
      raw.disconnect();
      await server.stop();
    }
  });

  it("steps down with one warning, without the password, when authentication is refused", async () => {
    const server = await startRedisServer({ password: "right horse" });
    try {
      const url = `redis://:wrong-battery@127.0.0.1:${server.port}/1`;
      const name = freshName();
      await touch(sharedStoreFor(url), name);
      expect(inFile(name)).toBe(true);
      // A second account on the same URL: no second warning.
      await touch(sharedStoreFor(url), freshName());
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`redis://127.0.0.1:${server.port}/1`);
      expect(warnings[0]).toMatch(/WRONGPASS|NOAUTH|auth/i);
      expect(warnings[0]).not.toContain("wrong-battery");
    } finally {
      await server.stop();
    }
  });

  it("never shows the password in the warning, whatever shape of URL holds it", async () => {
    const server = await startRedisServer({ password: "right horse" });
    try {
      const at = `127.0.0.1:${server.port}`;
      // [URL, its password]: the password sent to a real server that refuses it, or a URL no
      // parser reads the same way, each warned about once.
      const urls: [string, string][] = [
        [`redis://:Pa55/word@${at}/0`, "Pa55/word"],
        [`redis:/:pw5ecret@${at}`, "pw5ecret"],
        [`redis://${at}/0?password=qs5ecret`, "qs5ecret"],
        [`redis://${at}/1?db=1&password=qs%2F5ecret`, "qs/5ecret"],
        [`redis://p@ssw0rd@${at}/2`, "p@ssw0rd"],
        [`redis://wr0ngpass@${at}/3`, "wr0ngpass"],
      ];
      for (const [url] of urls) await touch(sharedStoreFor(url), freshName());
      expect(warnings).toHaveLength(urls.length);
      for (const [index, [, password]] of urls.entries()) {
        expect(warnings[index]).not.toContain(password);
        expect(warnings[index]).not.toContain(encodeURIComponent(password));
      }
    } finally {
      await server.stop();
    }
  });

  it("steps down with a warning when nothing listens at the URL", async () => {
    const port = await freePort();
    const name = freshName();
    await touch(sharedStoreFor(`redis://127.0.0.1:${port}`), name);
    expect(inFile(name)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`redis://127.0.0.1:${port}`);
    expect(warnings[0]).toContain("this machine's processes only");
  });

  it("steps down with a warning when the URL is not a Redis URL", async () => {
    const name = freshName();
    await touch(sharedStoreFor("http://:pw-in-it@127.0.0.1:1"), name);
    expect(inFile(name)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain("pw-in-it");
  });

  it("goes on locally, without a failed call, when Redis goes away mid-run", async () => {
    const server = await startRedisServer();
    const name = freshName();
    const limiter = new RateLimiter({ clock: epochClock, classes: RATE_CLASSES, sharedStore: sharedStoreFor(server.url), stateName: name });
    const first = await limiter.acquire({ rateClass: "C", cost: 1 });
    first.release();
    await limiter.flush();
    expect(inFile(name)).toBe(false);
    await server.stop();
    const permits = await Promise.all([1, 2, 3].map(() => limiter.acquire({ rateClass: "C", cost: 1 })));
    for (const permit of permits) permit.release();
    await limiter.flush();
    expect(permits).toHaveLength(3);
    expect(inFile(name)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(server.url);
  });

  it("a limiter waiting for the cap, filled by another's tickets, goes on at once when Redis goes away", async () => {
    const server = await startRedisServer();
    const name = freshName();
    const limiterOn = () =>
      new RateLimiter({ clock: epochClock, classes: RATE_CLASSES, sharedStore: sharedStoreFor(server.url), stateName: name });
    const other = limiterOn();
    const held = await Promise.all([1, 2, 3, 4].map(() => other.acquire({ rateClass: "C", cost: 1 })));
    const waiting = limiterOn();
    let granted = false;
    const next = waiting.acquire({ rateClass: "C", cost: 1 }).then((permit) => ((granted = true), permit));
    const look = new Redis(server.url);
    await waitFor(async () => ((await look.pubsub("CHANNELS")) as string[]).length > 0);
    look.disconnect();
    expect(granted).toBe(false); // the cap (4) is the other's
    const stoppedAt = Date.now();
    await server.stop();
    // Its subscription ended: it decides again, down on the machine's file, where nothing of the other's is carried
    // (the other's tickets could be released by no one there). Without that it would sleep to their liveness deadline.
    (await next).release();
    expect(Date.now() - stoppedAt).toBeLessThan(livenessMs(CONFIG));
    for (const permit of held) permit.release();
    await Promise.all([other.flush(), waiting.flush()]);
  });
});

describe("what a process decided travels with it between places (carriedOnLadder)", () => {
  /** A store that fails while `down`, else keeps states in memory. */
  class Place implements LimiterStore {
    down = false;
    readonly states = new Map<string, LimiterState>();
    update(name: string, decide: (state: LimiterState | undefined) => LimiterState): void {
      if (this.down) throw new Error("away");
      this.states.set(name, decide(this.states.get(name)));
    }
  }
  const marked = (good: number): LimiterState => ({ ...freshState(CONFIG), cap: { ...freshState(CONFIG).cap, good } });

  it("hands the first decision on a new place, down or back up, the last state decided, merged with what is there", () => {
    const shared = new Place();
    const machine = new Place();
    const store = carriedOnLadder(
      new FallbackLadder<LimiterStore>([{ make: () => shared, back: () => !shared.down }, { make: () => machine }]),
    );
    const seen: (number | undefined)[] = [];
    // Places in memory answer synchronously: each decision is done when the call returns.
    const decide = (good: number) => void store.update("a", (state) => (seen.push(state?.cap.good), marked(good)));
    decide(1);
    shared.down = true;
    decide(2); // stepped down: handed what was decided on the shared place, not the machine's nothing
    decide(3);
    shared.down = false;
    shared.states.clear(); // back, restarted empty
    decide(4);
    decide(5);
    expect(seen).toEqual([undefined, 1, 2, 3, 4]);
  });

  it("merges by window: the one that surely ends later, else the fuller; its own tickets; the account's cap", () => {
    const window = (endsAfter: number, endsBy: number, spent: number) => ({
      opened: endsAfter - 1_000,
      endsAfter,
      endsBy,
      heard: true,
      spent,
      own: spent,
      carry: 0,
      carryUntil: 0,
      limit: 150,
    });
    const ticket = { cls: "C", cost: 1, at: 0, exp: 10_000, burst: 0, steady: 0, live: 1 };
    const found: LimiterState = {
      classes: { C: { burst: window(1_000, 1_010, 9), steady: window(60_000, 60_010, 3) } },
      tickets: { "other#1": ticket },
      cap: { value: 6, ceiling: null, loweredAt: null, good: 0 },
    };
    const apart: LimiterState = {
      classes: {
        C: { burst: window(2_000, 2_010, 1), steady: window(60_005, 60_020, 150) },
        A: { burst: window(5, 6, 1), steady: window(5, 6, 1) },
      },
      tickets: { "me#1": ticket, "other#2": ticket },
      cap: { value: 2, ceiling: null, loweredAt: null, good: 0 },
    };
    const merged = carriedState(found, apart, "me#")!;
    expect(merged.classes.C!.burst.spent).toBe(1); // apart's surely ends later: a later window
    expect(merged.classes.C!.steady.spent).toBe(150); // they overlap: maybe one window, the fuller (not 153)
    expect(merged.classes.A).toEqual(apart.classes.A);
    // Its own tickets and the place's: another limiter's ticket from elsewhere could be released by no one here.
    expect(Object.keys(merged.tickets).sort()).toEqual(["me#1", "other#1"]);
    expect(Object.keys(carriedState(undefined, apart, "me#")!.tickets)).toEqual(["me#1"]);
    expect(merged.cap.value).toBe(6);
    expect(carriedState(undefined, apart)).toEqual(apart);
    expect(carriedState(found, undefined)).toBe(found);
  });

  it("counts what each machine spent apart once: four machines back in a Redis restarted empty, one after another", () => {
    // A steady window the four shared (15 admitted each, and 5 the server counted of others), then
    // each alone on its own file admitting 10 more, then each back in Redis in turn.
    const steady = (by: Record<string, number>) => {
      const admitted = Object.values(by).reduce((sum, cost) => sum + cost, 0);
      return {
        opened: 0,
        endsAfter: 60_000,
        endsBy: 60_010,
        heard: true,
        spent: admitted + 5,
        own: admitted,
        by,
        carry: 0,
        carryUntil: 0,
        limit: 150,
      };
    };
    const machines = ["a#", "b#", "c#", "d#"];
    const shared = Object.fromEntries(machines.map((m) => [m, 15]));
    const apartOf = (m: string): LimiterState => ({
      classes: { C: { burst: steady({}), steady: steady({ ...shared, [m]: 25 }) } },
      tickets: {},
      cap: { value: 4, ceiling: null, loweredAt: null, good: 0 },
    });
    let redis: LimiterState | undefined; // restarted empty
    for (const m of machines) redis = carriedState(redis, apartOf(m));
    expect(redis!.classes.C!.steady).toMatchObject({ spent: 4 * 25 + 5, own: 4 * 25 }); // the fuller of them alone: 75
    // Nothing is counted twice: a state met with itself keeps its counts.
    expect(carriedState(redis, redis)!.classes.C!.steady).toMatchObject({ spent: 105, own: 100 });
  });
});
