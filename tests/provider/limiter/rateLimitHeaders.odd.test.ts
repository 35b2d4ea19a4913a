/**
 * The client against a scripted server that answers rate-limit headers the spec does not lead one
 * to expect (spec, Limits 4-6): a `Retry-After` of an hour or of 10^12 s, an `X-RateLimit-Reset`
 * sent as a Unix time, one `X-RateLimit-Limit: 1`. Whatever they say, the account waits at most
 * what the windows make plausible, learns back what a later answer says, and a second process on
 * the same state (a real one, in one case) is neither hung nor spinning.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiRateLimitError, type ApiClientOptions, closeApiClients, getApiClient } from "../../../provider/client";
import { RateLimiter } from "../../../provider/limiter";
import { epochClock } from "../../../provider/infrastructure/clock";
import type { LimiterState } from "../../../provider/limiter/limiterState";
import { FileLimiterStore } from "../../../provider/limiter/limiterStores";
import { FakeClock, flush } from "../../helpers/fakeClock";
import { type ScriptedServer, envelopeOf, json, startScriptedServer } from "../../helpers/scriptedServer";
import { waitFor } from "../../helpers/waitFor";

const BIN = join(__dirname, "..", "..", "..", "bin", "provider", "limiter");
const TOKEN = "demo-token";
const ZONE = { id: "1001", name: "Zone" };
const BURST_MS = 1_000;
const STEADY_MS = 60_000;

let server: ScriptedServer | undefined;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "adplatform-odd-headers-"));
});

afterEach(async () => {
  await closeApiClients();
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A client of `s` whose limiter runs on `clock` and shares the state file of the test's directory. */
function clientOf(s: ScriptedServer, clock: FakeClock, options: Partial<ApiClientOptions> = {}) {
  return getApiClient({
    baseUrl: s.url,
    token: TOKEN,
    retryOptions: { baseDelayMs: 10, maxDelayMs: 50, jitterWindowMs: 20 },
    random: () => 0.5,
    limiterOptions: {
      clock,
      burstWindowMs: BURST_MS,
      steadyWindowMs: STEADY_MS,
      sharedStore: new FileLimiterStore(dir),
    },
    ...options,
  });
}

const getZone = (client: ReturnType<typeof getApiClient>) => client.call("getZone", { pathParams: { id: "1001" } });

describe("a Retry-After longer than any window", () => {
  it("fails its call at once (the retry budget), and pauses the account for one steady window, not the hour", async () => {
    server = await startScriptedServer((_req, res, i) =>
      i === 0 ? json(res, 429, { code: 429 }, { "retry-after": "3600" }) : json(res, 200, envelopeOf(ZONE)),
    );
    const clock = new FakeClock(Date.now());
    const client = clientOf(server, clock);
    const error = await getZone(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRateLimitError);
    expect((error as ApiRateLimitError).message).toContain("the retry budget");
    expect(client.limiter.snapshot().windows.C!.steady.endsInMs).toBeLessThanOrEqual(STEADY_MS);
    // The state file, which every process of the account reads, says no more.
    const [file] = readdirSync(dir).filter((name) => name.endsWith(".v3.json"));
    const shared = JSON.parse(readFileSync(join(dir, file!), "utf8")) as LimiterState;
    expect(shared.classes.C!.steady.endsBy - clock.now()).toBeLessThanOrEqual(STEADY_MS);

    const next = getZone(client);
    await flush();
    expect(server.requests).toHaveLength(1);
    await clock.advance(STEADY_MS);
    await expect(next).resolves.toMatchObject({ status: 200 });
    expect(server.requests).toHaveLength(2);
  });

  it("(10^12 s) leaves a second process on the same state file sending within a steady window, not spinning", async () => {
    server = await startScriptedServer((_req, res) => json(res, 429, { code: 429 }, { "retry-after": "1000000000000" }));
    // Windows scaled down so the second process's wait is short; both on the epoch clock, as
    // processes sharing a state file are.
    const scaled = { clock: epochClock, burstWindowMs: 20, steadyWindowMs: 200 };
    const client = getApiClient({
      baseUrl: server.url,
      token: TOKEN,
      limiterOptions: { ...scaled, sharedStore: new FileLimiterStore(dir) },
    });
    await expect(getZone(client)).rejects.toBeInstanceOf(ApiRateLimitError);

    const child = spawn(
      process.execPath,
      [
        "-e",
        `const { RateLimiter } = require(${JSON.stringify(join(BIN, "limiter.js"))});
         const { FileLimiterStore } = require(${JSON.stringify(join(BIN, "limiterStores.js"))});
         const { epochClock } = require(${JSON.stringify(join(BIN, "..", "infrastructure", "clock.js"))});
         process.on("warning", (w) => console.log("warning " + w.name));
         const store = new FileLimiterStore(${JSON.stringify(dir)});
         new RateLimiter({ clock: epochClock, burstWindowMs: 20, steadyWindowMs: 200, sharedStore: store })
           .acquire({ rateClass: "C", cost: 1 })
           .then(() => { console.log("admitted"); process.exit(0); });`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    try {
      await waitFor(() => out.includes("admitted") || out.includes("TimeoutOverflowWarning"));
      expect(out).not.toContain("TimeoutOverflowWarning");
      expect(out).toContain("admitted");
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("an X-RateLimit-Reset sent as a Unix time", () => {
  it.each([
    ["already past (1764012345)", () => "1764012345"],
    ["an hour ahead", () => String(Math.floor(Date.now() / 1000) + 3600)],
  ])("%s: the burst window still ends within its length, and the 11th call goes when it does", async (_name, reset) => {
    server = await startScriptedServer((_req, res, i) =>
      json(res, 200, envelopeOf(ZONE), { "x-ratelimit-limit": "10", "x-ratelimit-remaining": String(9 - i), "x-ratelimit-reset": reset() }),
    );
    const clock = new FakeClock(Date.now());
    const client = clientOf(server, clock);
    const first = Array.from({ length: 10 }, () => getZone(client));
    await Promise.all(first);
    const eleventh = getZone(client);
    await flush();
    expect(server.requests).toHaveLength(10);
    const burst = client.limiter.snapshot().windows.C!.burst;
    expect(burst.used).toBe(10);
    expect(burst.endsInMs).toBeLessThanOrEqual(BURST_MS * 1.25);
    await clock.advance(BURST_MS * 1.25);
    await expect(eleventh).resolves.toMatchObject({ status: 200 });
  });
});

describe("one answer with X-RateLimit-Limit: 1", () => {
  it("does not hold the account at one call a window: the next call goes at once, and a later answer's limit is what the next process reads", async () => {
    server = await startScriptedServer((_req, res, i) =>
      i === 0
        ? json(res, 200, envelopeOf(ZONE), { "x-ratelimit-limit": "1", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "60" })
        : json(res, 200, envelopeOf(ZONE), {
            "x-ratelimit-limit": "150",
            "x-ratelimit-remaining": String(150 - i - 1),
            "x-ratelimit-reset": "59",
          }),
    );
    const clock = new FakeClock(Date.now());
    const client = clientOf(server, clock);
    await getZone(client);
    expect(client.limiter.snapshot().windows.C!.steady.limit).toBeGreaterThanOrEqual(75);
    // No clock moves: were the limit 1, this call would wait for the steady window to end.
    await getZone(client);
    expect(server.requests).toHaveLength(2);
    expect(client.limiter.snapshot().windows.C!.steady.limit).toBe(150);
    // A process that starts now on the same state reads the limit the last answer gave.
    const later = new RateLimiter({ clock, sharedStore: new FileLimiterStore(dir), stateName: readdirSync(dir)[0]!.split(".")[0]! });
    (await later.acquire({ rateClass: "C", cost: 1 })).release();
    expect(later.snapshot().windows.C!.steady.limit).toBe(150);
  });
});
