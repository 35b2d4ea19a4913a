/**
 * The machine's limiter store: the account's state file, its lock, what it reads when the file is
 * not its own write, the sweep of stale files and of dead processes' requests, and where the files
 * live. Limiters sharing a store are in `limiter.sharedStore.test.ts`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Permit, RateLimiter } from "../../../provider/client";
import {
  FILE_STORE_DEFAULTS,
  FileLimiterStore,
  sharedStateDirectory,
  sharedStatePath,
  sweepStaleStates,
} from "../../../provider/client/fileLimiterStore";
import { emptyLimiterState } from "../../../provider/client/limiterStore";
import { FakeClock } from "../../helpers/fakeClock";

const BIN = join(__dirname, "..", "..", "..", "bin", "provider", "client");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "adplatform-shared-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A limiter on a store of the file `account.json` in the test's directory. */
function limiterOnFile(clock: FakeClock, cap = 1000): RateLimiter {
  return new RateLimiter({
    clock,
    burstWindowMs: 1_000,
    steadyWindowMs: 60_000,
    guardMs: 0,
    concurrency: { initial: cap, min: 1, max: cap },
    sharedStore: new FileLimiterStore(join(dir, "account.json")),
  });
}

/** Starts `count` acquisitions on `l`, recording admissions; each is released at once. */
function acquireMany(l: RateLimiter, count: number): Permit[] {
  const admitted: Permit[] = [];
  for (let i = 0; i < count; i++) {
    void l.acquire({ rateClass: "C", cost: 1 }).then((permit) => {
      admitted.push(permit);
      permit.release();
    });
  }
  return admitted;
}

describe("the state file", () => {
  it("is seen by every store on it although each keeps its own last write in memory", () => {
    const file = join(dir, "account.json");
    const a = new FileLimiterStore(file);
    const b = new FileLimiterStore(file);
    a.transact((state) => void (state.pausedUntil = 1));
    a.transact((state) => expect(state.pausedUntil).toBe(1)); // from memory: the file is still a's write
    b.transact((state) => void (state.pausedUntil = 2));
    a.transact((state) => expect(state.pausedUntil).toBe(2));
    expect(a.load().pausedUntil).toBe(2);
    writeFileSync(file, "{ not json"); // anything else that replaced the file is read, not trusted
    a.transact((state) => expect(state.pausedUntil).toBeNull());
  });

  it("is read without the lock and without a write by load", () => {
    const file = join(dir, "account.json");
    const store = new FileLimiterStore(file);
    expect(store.load()).toEqual(emptyLimiterState());
    expect(existsSync(file)).toBe(false);
    store.transact((state) => void (state.pausedUntil = 5));
    writeFileSync(`${file}.lock`, ""); // held by someone else: a read does not wait for it
    expect(new FileLimiterStore(file).load().pausedUntil).toBe(5);
  });

  it("reads as a fresh one when unreadable", async () => {
    const clock = new FakeClock();
    writeFileSync(join(dir, "account.json"), "{ not json");
    const a = limiterOnFile(clock);
    const admitted = acquireMany(a, 10);
    await clock.advance(10);
    expect(admitted).toHaveLength(10);
  });

  it("forgets the requests in flight of a process that died", async () => {
    const clock = new FakeClock();
    const file = join(dir, "account.json");
    const a = limiterOnFile(clock, 2);
    acquireMany(a, 1);
    await clock.advance(10);
    const state = JSON.parse(readFileSync(file, "utf8")) as { inFlight: Record<string, number> };
    // A pid far above any real one: no such process.
    state.inFlight["4194999:1"] = 2;
    // This process is alive: its other limiters' requests stay.
    state.inFlight[`${process.pid}:999999`] = 0;
    writeFileSync(file, JSON.stringify(state));
    const fromA = acquireMany(a, 1);
    await clock.advance(10);
    expect(fromA).toHaveLength(1);
    const inFlight = Object.keys((JSON.parse(readFileSync(file, "utf8")) as { inFlight: object }).inFlight);
    expect(inFlight).not.toContain("4194999:1");
    expect(inFlight).toContain(`${process.pid}:999999`);
  });
});

describe("the lock file", () => {
  it("is taken over when dated in the future (planted, or a clock stepped back), instead of waited for for ever", () => {
    const file = join(dir, "account.json");
    writeFileSync(`${file}.lock`, "");
    const future = new Date(Date.now() + 10 * 365 * 24 * 3_600_000);
    utimesSync(`${file}.lock`, future, future);
    // In a process of its own: the lock is waited for synchronously, which no test timeout ends.
    const child = spawnSync(
      process.execPath,
      [
        "-e",
        `const { FileLimiterStore } = require(${JSON.stringify(join(BIN, "fileLimiterStore.js"))});
         new FileLimiterStore(${JSON.stringify(file)}).transact(() => undefined);
         console.log("written");`,
      ],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect(child.stdout).toContain("written");
  });

  it("that is stale and cannot be removed (a directory in its place) fails the transaction, saying what to fix, instead of spinning", () => {
    const file = join(dir, "account.json");
    mkdirSync(`${file}.lock`);
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, past, past);
    const child = spawnSync(
      process.execPath,
      [
        "-e",
        `const { FileLimiterStore } = require(${JSON.stringify(join(BIN, "fileLimiterStore.js"))});
         try { new FileLimiterStore(${JSON.stringify(file)}).transact(() => undefined); } catch (e) { console.log(e.message); }`,
      ],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect(child.stdout).toContain(`the rate-limit lock ${file}.lock is stale and cannot be removed`);
    expect(child.stdout).toContain("ADPLATFORM_LIMITS_DIR");
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
    new FileLimiterStore(join(dir, "account.json"));
    expect(existsSync(stale)).toBe(false);
  });
});

describe("the state directory", () => {
  it("is ADPLATFORM_LIMITS_DIR when set, else this user's (in /dev/shm when writable)", () => {
    expect(sharedStateDirectory({ ADPLATFORM_LIMITS_DIR: "/var/tmp/own-limits" })).toBe("/var/tmp/own-limits");
    expect(sharedStateDirectory({})).toMatch(/pulumi-adplatform-limits(-\d+)?$/);
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
