/**
 * Limiters of several processes on one account share its windows through the state file
 * (`sharedWindows.ts`). Two limiters on one `FileSharedStore` and one hand-driven clock stand for
 * two processes: together they never exceed a window, keep one in-flight cap, and a dead process's
 * requests in flight are forgotten.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LimiterOptions, type Permit, RateLimiter } from "../../provider/client";
import { FILE_STORE_DEFAULTS, FileSharedStore, sharedStateDirectory, sharedStatePath, sweepStaleStates } from "../../provider/client/sharedWindows";
import { FakeClock, flush } from "./fakeClock";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "adplatform-shared-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function pair(clock: FakeClock, options: Partial<LimiterOptions> = {}): [RateLimiter, RateLimiter] {
  const make = () =>
    new RateLimiter({
      clock,
      burstWindowMs: 1_000,
      steadyWindowMs: 60_000,
      guardMs: 0,
      concurrency: { initial: 1000, min: 1, max: 1000 },
      // Each limiter its own store object on the same file, as two processes would have.
      sharedStore: new FileSharedStore(join(dir, "account.json")),
      ...options,
    });
  return [make(), make()];
}

/** Starts `count` acquisitions on `l`, recording admission times; releases at once unless told. */
function acquireMany(l: RateLimiter, clock: FakeClock, count: number, release = true) {
  const admitted: { at: number; permit: Permit }[] = [];
  for (let i = 0; i < count; i++) {
    void l.acquire({ rateClass: "C", cost: 1 }).then((permit) => {
      admitted.push({ at: clock.now(), permit });
      if (release) permit.release();
    });
  }
  return admitted;
}

/** Largest number of admissions inside any window of `length` starting at an admission. */
function maxInWindow(times: number[], length: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j < sorted.length && sorted[j]! < sorted[i]! + length) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

describe("two limiters on one shared store", () => {
  it("admit 10 per burst window and 150 per steady window together, and ride the windows", async () => {
    const clock = new FakeClock();
    const [a, b] = pair(clock);
    const start = clock.now();
    const fromA = acquireMany(a, clock, 150);
    const fromB = acquireMany(b, clock, 150);
    for (let t = 0; t < 80_000; t += 50) await clock.advance(50);
    await flush();
    const times = [...fromA, ...fromB].map((x) => x.at - start);
    expect(times).toHaveLength(300);
    expect(maxInWindow(times, 1_000)).toBe(10);
    expect(maxInWindow(times, 60_000)).toBe(150);
    // Riding the windows: 150 by 14 s, the rest from 60 s, the last at 74 s (the physical bound).
    expect(Math.max(...times)).toBe(74_000);
    // Both got a share; neither starved.
    expect(fromA.length).toBeGreaterThan(0);
    expect(fromB.length).toBeGreaterThan(0);
  });

  it("keep one in-flight cap for the machine", async () => {
    const clock = new FakeClock();
    const [a, b] = pair(clock, { concurrency: { initial: 3, min: 1, max: 3 } });
    const fromA = acquireMany(a, clock, 3, false);
    await flush();
    const fromB = acquireMany(b, clock, 3, false);
    await clock.advance(10);
    expect(fromA).toHaveLength(3);
    expect(fromB).toHaveLength(0);
    fromA[0]!.permit.release();
    await clock.advance(50);
    expect(fromB).toHaveLength(1);
  });

  it("share what one learned of the in-flight limit, and probe past it once for the machine", async () => {
    const clock = new FakeClock();
    const [a, b] = pair(clock, { concurrency: { initial: 4, min: 1, max: 8 } });
    const fromA = acquireMany(a, clock, 3, false);
    await flush();
    const fromB = acquireMany(b, clock, 1, false);
    await clock.advance(1);
    expect([fromA.length, fromB.length]).toEqual([3, 1]);
    // The server allows 2: it refuses a's third (sent with 2 in flight) and b's (sent with 3).
    a.observe(fromA[2]!.permit, { status: 429, retryAfter: { kind: "concurrency" } }, { release: true });
    expect(a.snapshot().concurrency).toBe(2);
    // b's refusal describes the cap before a lowered it: the machine's cap stays at the limit.
    b.observe(fromB[0]!.permit, { status: 429, retryAfter: { kind: "concurrency" } }, { release: true });
    expect(b.snapshot().concurrency).toBe(2);
    for (const { permit } of fromA.slice(0, 2)) a.observe(permit, { status: 200 }, { release: true });
    // b, never refused for its own count, sends at most 2 at once.
    const next = acquireMany(b, clock, 3, false);
    await clock.advance(10);
    expect(next).toHaveLength(2);
    // Past the ceiling only once a steady window has passed, and then for the whole machine.
    await clock.advance(60_000);
    for (const { permit } of next) b.observe(permit, { status: 200 }, { release: true });
    expect(b.snapshot().concurrency).toBe(3);
    expect(a.snapshot().concurrency).toBe(3);
  });

  it("share a Retry-After pause", async () => {
    const clock = new FakeClock();
    const [a, b] = pair(clock);
    const admittedA = acquireMany(a, clock, 1, false);
    await clock.advance(1);
    const first = admittedA[0];
    a.observe(first!.permit, { status: 429, retryAfter: { kind: "delay", ms: 5_000 } });
    first!.permit.release();
    const fromB = acquireMany(b, clock, 1);
    await clock.advance(4_999);
    expect(fromB).toHaveLength(0);
    await clock.advance(1);
    expect(fromB).toHaveLength(1);
  });

  it("forget the requests in flight of a process that died", async () => {
    const clock = new FakeClock();
    const file = join(dir, "account.json");
    const [a] = pair(clock, { concurrency: { initial: 2, min: 1, max: 2 } });
    acquireMany(a, clock, 1);
    await clock.advance(10);
    const state = JSON.parse(readFileSync(file, "utf8")) as { inFlight: Record<string, number> };
    // A pid far above any real one: no such process.
    state.inFlight["4194999:1"] = 2;
    writeFileSync(file, JSON.stringify(state));
    const fromA = acquireMany(a, clock, 1);
    await clock.advance(10);
    expect(fromA).toHaveLength(1);
    expect(Object.keys((JSON.parse(readFileSync(file, "utf8")) as { inFlight: object }).inFlight)).not.toContain("4194999:1");
  });

  it("see each other's writes although each keeps its own last write in memory", () => {
    const file = join(dir, "account.json");
    const a = new FileSharedStore(file);
    const b = new FileSharedStore(file);
    a.update((state) => void (state.pausedUntil = 1));
    a.update((state) => expect(state.pausedUntil).toBe(1)); // from memory: the file is still a's write
    b.update((state) => void (state.pausedUntil = 2));
    a.update((state) => expect(state.pausedUntil).toBe(2));
    writeFileSync(file, "{ not json"); // anything else that replaced the file is read, not trusted
    a.update((state) => expect(state.pausedUntil).toBeNull());
  });

  it("are not looked at by calls that queue behind a full in-flight cap", async () => {
    const clock = new FakeClock();
    const store = new FileSharedStore(join(dir, "account.json"));
    let looks = 0;
    const counting = { update: <T>(fn: Parameters<typeof store.update<T>>[0]) => (looks++, store.update(fn)) };
    const [a] = pair(clock, { concurrency: { initial: 4, min: 1, max: 8 }, sharedStore: counting });
    const admitted = acquireMany(a, clock, 300, false);
    // One look admitted each of the first 4; the other 296 queued without a look (a release pumps).
    expect(looks).toBe(4);
    await flush();
    expect(admitted).toHaveLength(4);
    admitted[0]!.permit.release();
    await flush();
    expect(admitted).toHaveLength(5);
  });

  it("read an unreadable state file as a fresh one", async () => {
    const clock = new FakeClock();
    writeFileSync(join(dir, "account.json"), "{ not json");
    const [a] = pair(clock);
    const admitted = acquireMany(a, clock, 10);
    await clock.advance(10);
    expect(admitted).toHaveLength(10);
  });
});

describe("stale state files", () => {
  it("are removed when a store opens: only this module's names, only when untouched for long enough", () => {
    const hash = "0123456789abcdef0123456789abcdef";
    const names = [`${hash}.json`, `${hash}.json.lock`, `${hash}.json.4242.tmp`, "notes.json", `${hash.replace("0", "f")}.json`];
    for (const name of names) writeFileSync(join(dir, name), "{}");
    const old = new Date(Date.now() - 3_600_000);
    for (const name of names.slice(0, 4)) utimesSync(join(dir, name), old, old);
    expect(sweepStaleStates(dir, 600_000).sort()).toEqual(names.slice(0, 3).sort());
    expect(readdirSync(dir).sort()).toEqual(names.slice(3).sort());
  });

  it("are swept by the first store opened on a directory", () => {
    const stale = join(dir, "ffffffffffffffffffffffffffffffff.json");
    writeFileSync(stale, "{}");
    const old = new Date(Date.now() - FILE_STORE_DEFAULTS.staleStateMs - 1_000);
    utimesSync(stale, old, old);
    new FileSharedStore(join(dir, "account.json"));
    expect(existsSync(stale)).toBe(false);
  });
});

describe("the state directory", () => {
  it("is ADPLATFORM_LIMITS_DIR when set, else the machine's (/dev/shm when writable)", () => {
    expect(sharedStateDirectory({ ADPLATFORM_LIMITS_DIR: "/var/tmp/own-limits" })).toBe("/var/tmp/own-limits");
    expect(sharedStateDirectory({})).toMatch(/pulumi-adplatform-limits$/);
    // The suites give every test file its own (tests/helpers/isolatedLimiterState.ts).
    expect(sharedStateDirectory()).toBe(process.env.ADPLATFORM_LIMITS_DIR);
  });
});

describe("the state file's name", () => {
  it("never contains the token and differs per account", () => {
    const one = sharedStatePath("https://api.example.com", "secret-token-1", dir);
    const two = sharedStatePath("https://api.example.com", "secret-token-2", dir);
    expect(one).not.toContain("secret-token-1");
    expect(one).not.toBe(two);
    expect(one.startsWith(dir)).toBe(true);
  });
});
