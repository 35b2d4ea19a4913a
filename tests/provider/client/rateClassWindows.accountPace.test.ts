/**
 * Pacing by the account's budget as the headers report it (spec, Limits 5: `X-RateLimit-Remaining`
 * and `X-RateLimit-Reset` are the account's). A scripted server plays the account: every request
 * of ours lowers Remaining by one, and other machines, which this client cannot see, lower it
 * further while they spend. The limiter's clock is a fake one, moved by the test; only counts are
 * asserted, never durations.
 */
import { closeApiClients, getApiClient } from "../../../provider/client";
import { FakeClock } from "../../helpers/fakeClock";
import { type ScriptedServer, envelopeOf, json, startScriptedServer } from "../../helpers/scriptedServer";

const TOKEN = "demo-token";
const BURST_MS = 1_000;
const STEADY_MS = 60_000;

let server: ScriptedServer | undefined;

afterEach(async () => {
  await closeApiClients();
  await server?.close();
  server = undefined;
});

/** Polls (on the wall clock) until `condition` holds; fails the test after `tries` looks. */
async function waitFor(condition: () => boolean, tries = 2_000): Promise<void> {
  for (let i = 0; i < tries; i += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the condition never held");
}

/**
 * The account's steady window as the server counts it: `spentByOthers` already spent when the test
 * starts, and the others spend `othersPerRequest(i)` more beside our `i`-th request (from 0). Every
 * answer describes the steady window (`X-RateLimit-Limit: 150`), ending `STEADY_MS / 2` after the
 * first request, on the fake clock.
 */
async function steadyAccount(clock: FakeClock, spentByOthers: number, othersPerRequest: (i: number) => number) {
  let count = spentByOthers;
  const end = clock.now() + STEADY_MS / 2;
  return startScriptedServer((_req, res, i) => {
    count += 1 + othersPerRequest(i);
    if (count > 150) {
      count -= 1;
      json(res, 429, { code: 429 }, { "retry-after": String(Math.ceil((end - clock.now()) / 1000)) });
      return;
    }
    json(res, 200, envelopeOf({ id: "1001", name: "Zone" }), {
      "x-ratelimit-limit": "150",
      "x-ratelimit-remaining": String(150 - count),
      "x-ratelimit-reset": String((end - clock.now()) / 1000),
    });
  });
}

function clientOf(s: ScriptedServer, clock: FakeClock) {
  return getApiClient({
    baseUrl: s.url,
    token: TOKEN,
    random: () => 0.5,
    limiterOptions: { clock, burstWindowMs: BURST_MS, steadyWindowMs: STEADY_MS, shareAcrossProcesses: false },
  });
}

/** Issues `n` reads at once and moves the clock a burst window at a time, `windows` times, letting answers arrive. */
async function run(client: ReturnType<typeof clientOf>, clock: FakeClock, n: number, windows: number) {
  const settled = { count: 0 };
  const calls = Array.from({ length: n }, () =>
    client.call("getZone", { pathParams: { id: "1001" } }).finally(() => {
      settled.count += 1;
    }),
  );
  for (let w = 0; w < windows && settled.count < n; w += 1) {
    await waitFor(() => client.limiter.snapshot().inFlight === 0);
    await clock.advance(BURST_MS);
  }
  await waitFor(() => client.limiter.snapshot().inFlight === 0);
  return { settled: settled.count, calls };
}

describe("pacing by the account's budget", () => {
  it("spends the last units of a steady window once the others stop, instead of waiting the window out for them", async () => {
    const clock = new FakeClock(Date.now());
    // 110 spent by others; they spend one beside each of our first 10 requests, then stop: our 30
    // and their 10 fill the window to exactly 150.
    server = await steadyAccount(clock, 110, (i) => (i < 10 ? 1 : 0));
    const client = clientOf(server, clock);
    // 30 requests need 3 burst windows; 6 leave room for the answers, a fraction of the steady window.
    const { settled, calls } = await run(client, clock, 30, 6);
    expect(settled).toBe(30);
    expect(server.requests).toHaveLength(30);
    await Promise.all(calls);
  });
});

describe("a 429 inside a burst window whose end an answer gave", () => {
  it("pauses the account until that end, not the whole rounded-up Retry-After", async () => {
    const clock = new FakeClock(Date.now());
    const end = clock.now() + 200;
    server = await startScriptedServer((_req, res, i) =>
      i === 0
        ? json(res, 200, envelopeOf({ id: "1001", name: "Zone" }), {
            "x-ratelimit-limit": "10",
            "x-ratelimit-remaining": "1",
            "x-ratelimit-reset": String((end - clock.now()) / 1000),
          })
        : // The window filled with others' requests: Retry-After is whole seconds, rounded up.
          json(res, 429, { code: 429 }, { "retry-after": "1" }),
    );
    const client = clientOf(server, clock);
    await client.call("getZone", { pathParams: { id: "1001" } });
    void client.call("getZone", { pathParams: { id: "1001" } }).catch(() => undefined);
    await waitFor(() => server!.requests.length === 2 && client.limiter.snapshot().inFlight === 0);
    const { pausedForMs, windows } = client.limiter.snapshot();
    expect(pausedForMs).toBeLessThanOrEqual(200);
    // The window counts full until then, so nothing else of the account walks into it.
    expect(windows.C!.burst.used).toBe(10);
  });
});
