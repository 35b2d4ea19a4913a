/**
 * The stores that only store (`limiterStores.ts`): the machine's file store (its lock, a state
 * that does not parse, the state's versioned name, the sweep of stale files, where the files live)
 * and the memory store. Limiters sharing a store are in `limiter.sharedStore.test.ts`; Redis in
 * `redisLimiterStore.test.ts`.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelConfig } from "../../../provider/limiter/limiterModel";
import { freshState, type LimiterState } from "../../../provider/limiter/limiterState";
import {
  FILE_STORE_DEFAULTS,
  FileLimiterStore,
  MemoryLimiterStore,
  sharedStateDirectory,
  sharedStatePath,
  sweepStaleStates,
} from "../../../provider/limiter/limiterStores";
import { accountKey } from "../../../provider/client/accountKey";
import { REAL_WINDOWS } from "../../helpers/limiterConfig";

const BIN = join(__dirname, "..", "..", "..", "bin", "provider", "limiter");
const CONFIG: ModelConfig = REAL_WINDOWS;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "adplatform-shared-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What `update` handed `decide`, after writing `next` (default: a fresh state whose cap's `good` is 42). */
function seenBy(store: { update: (name: string, decide: (s: LimiterState | undefined) => LimiterState) => unknown }, next?: LimiterState) {
  let seen: LimiterState | undefined | "not called" = "not called";
  store.update("account", (state) => {
    seen = state;
    return next ?? { ...freshState(CONFIG), cap: { value: 4, ceiling: null, loweredAt: null, good: 42 } };
  });
  return seen;
}

describe.each([
  ["the file store", () => new FileLimiterStore(dir)],
  ["the memory store", () => new MemoryLimiterStore()],
])("%s", (_, make) => {
  it("hands decide nothing at first, then what the last update stored", () => {
    const store = make();
    expect(seenBy(store)).toBeUndefined();
    expect(seenBy(store)).toMatchObject({ cap: { good: 42 } });
  });
});

describe("the file store", () => {
  it("is one file per state, named by the state's format version, shared by every store on the directory", () => {
    seenBy(new FileLimiterStore(dir));
    expect(readdirSync(dir)).toEqual(["account.v3.json"]);
    expect(seenBy(new FileLimiterStore(dir))).toMatchObject({ cap: { good: 42 } });
  });

  it("hands decide nothing when the file does not parse as a state of its version", () => {
    writeFileSync(join(dir, "account.v3.json"), "{ not json");
    expect(seenBy(new FileLimiterStore(dir))).toBeUndefined();
    writeFileSync(join(dir, "account.v3.json"), JSON.stringify({ version: 1, classes: {}, pausedUntil: null, inFlight: {} }));
    expect(seenBy(new FileLimiterStore(dir))).toBeUndefined();
  });

  it("throws at every update when its directory is not private to this user", () => {
    const open = join(dir, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const store = new FileLimiterStore(open);
    expect(() => seenBy(store)).toThrow();
  });
});

describe("the lock file", () => {
  it("is taken over when dated in the future (planted, or a clock stepped back), instead of waited for for ever", () => {
    const file = join(dir, "account.v3.json");
    writeFileSync(`${file}.lock`, "");
    const future = new Date(Date.now() + 10 * 365 * 24 * 3_600_000);
    utimesSync(`${file}.lock`, future, future);
    // In a process of its own: the lock is waited for synchronously, which no test timeout ends.
    const child = spawnSync(
      process.execPath,
      [
        "-e",
        `const { FileLimiterStore } = require(${JSON.stringify(join(BIN, "limiterStores.js"))});
         new FileLimiterStore(${JSON.stringify(dir)}).update("account", (state) => state ?? { classes: {}, tickets: {}, cap: { value: 4, ceiling: null, loweredAt: null, good: 0 } });
         console.log("written");`,
      ],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect(child.stdout).toContain("written");
  });

  it("that is stale and cannot be removed (a directory in its place) fails the transaction, saying what to fix, instead of spinning", () => {
    const file = join(dir, "account.v3.json");
    mkdirSync(`${file}.lock`);
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, past, past);
    const child = spawnSync(
      process.execPath,
      [
        "-e",
        `const { FileLimiterStore } = require(${JSON.stringify(join(BIN, "limiterStores.js"))});
         try { new FileLimiterStore(${JSON.stringify(dir)}).update("account", (state) => state); } catch (e) { console.log(e.message); }`,
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
    // Of every version: the one before this had no version in its name.
    const names = [
      `${hash}.json`,
      `${hash}.v3.json.lock`,
      `${hash}.v3.json.4242.a1b2.tmp`,
      `${hash}.v3.json`,
      "notes.json",
      `${hash.replace("0", "f")}.v3.json`,
    ];
    for (const name of names) writeFileSync(join(dir, name), "{}");
    const old = new Date(Date.now() - 3_600_000);
    for (const name of names.slice(0, 5)) utimesSync(join(dir, name), old, old);
    expect(sweepStaleStates(dir, 600_000).sort()).toEqual(names.slice(0, 4).sort());
    expect(readdirSync(dir).sort()).toEqual(names.slice(4).sort());
  });

  it("are swept by the first store opened on a directory", () => {
    const stale = join(dir, "ffffffffffffffffffffffffffffffff.v3.json");
    writeFileSync(stale, "{}");
    const old = new Date(Date.now() - FILE_STORE_DEFAULTS.staleStateMs - 1_000);
    utimesSync(stale, old, old);
    new FileLimiterStore(dir);
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
    const one = sharedStatePath(accountKey("https://api.example.com", "secret-token-1"), dir);
    const two = sharedStatePath(accountKey("https://api.example.com", "secret-token-2"), dir);
    expect(one).not.toContain("secret-token-1");
    expect(one).not.toBe(two);
    expect(one.startsWith(dir)).toBe(true);
  });
});
