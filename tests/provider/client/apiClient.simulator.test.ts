/**
 * The client against the bundled simulator over real loopback HTTP (tests/README.md): every operation round-trips, the windows hold under load with scaled time, and faults
 * are recovered from (or, for a POST, not repeated). Counts come from the simulator's side.
 */
import { OPERATIONS, type OperationName } from "../../../provider/catalog";
import {
  type ApiClientOptions,
  ApiNetworkError,
  ApiServerError,
  type CallRequest,
  closeApiClients,
  getApiClient,
} from "../../../provider/client";
import { type RunningSimulator, SEED_ACCOUNTS, SEED_IDS, startSimulator } from "../../../simulator";
import { FakeClock } from "../../helpers/fakeClock";
import { VALID_CALLS } from "../../helpers/validCalls";
import { waitFor } from "../../helpers/waitFor";

// Scaled windows (spec, Limits 1 is 1 s / 60 s): the same limits, 10x and 20x faster.
const BURST_MS = 100;
const STEADY_MS = 3_000;
const TOKEN = "demo-token";

let sim: RunningSimulator | undefined;

afterEach(async () => {
  await closeApiClients();
  await sim?.close();
  sim = undefined;
});

async function start(options: Parameters<typeof startSimulator>[0] = {}): Promise<RunningSimulator> {
  sim = await startSimulator({ burstWindowMs: BURST_MS, steadyWindowMs: STEADY_MS, ...options });
  return sim;
}

function clientOf(s: RunningSimulator, options: Partial<ApiClientOptions> = {}) {
  return getApiClient({
    baseUrl: s.url,
    token: TOKEN,
    limiterOptions: { burstWindowMs: BURST_MS, steadyWindowMs: STEADY_MS },
    retryOptions: { baseDelayMs: 20, maxDelayMs: 200 },
    ...options,
  });
}

const ids = SEED_IDS;
const STRATEGY = VALID_CALLS.createBidStrategy.body;

/**
 * The valid call of every operation; `getZone` also asks for two subresources, so the round trip
 * shows they are charged (spec, Limits 7).
 */
const REQUESTS: Readonly<Record<OperationName, CallRequest>> = {
  ...VALID_CALLS,
  getZone: { ...VALID_CALLS.getZone, fields: ["account", "creator"] },
};

describe("client against the simulator", () => {
  it("round-trips every one of the 20 operations and parses each response with its schema", async () => {
    const s = await start();
    const client = clientOf(s);
    expect(OPERATIONS).toHaveLength(20);
    for (const op of OPERATIONS) {
      const request = REQUESTS[op.name];
      const result = await client.call(op, request);
      expect({ op: op.name, status: result.status }).toEqual({ op: op.name, status: op.successStatus });
      if (op.response) expect(op.response.safeParse(result.body).success).toBe(true);
      else expect(result.body).toBeUndefined();
      // A single-record read answers the id it was asked for.
      const id = request.pathParams?.[op.pathParams[op.pathParams.length - 1] ?? ""];
      if (op.method === "GET" && op.reads === "one") {
        expect((result.body as { items: { id: string }[] }).items[0]?.id).toBe(id);
      }
    }
    const log = s.requests();
    for (const op of OPERATIONS) expect(log.operations[String(op.number)]?.byStatus).toEqual({ [op.successStatus]: 1 });
    // The writes landed: PATCH changed the seeded modifier, POST created one strategy.
    expect(s.state().bidModifiers?.find((r) => r.id === ids.bidModifiers.countries)).toMatchObject(VALID_CALLS.updateBidModifier.body);
    expect(s.state().bidStrategies?.filter((r) => r.name === STRATEGY.name)).toHaveLength(1);
    // spec, Limits 7: getZone with two subresources was counted as 3 calls.
    expect(log.operations["13"]?.calls[0]?.cost).toBe(3);
  });

  it("never exceeds either window when 300 requests are issued at once", async () => {
    const s = await start();
    const client = clientOf(s);
    const reads = ["getZone", "getCreative", "getPushTask", "getSearchAlgorithm", "getProfileProperty"] as const;
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => {
        const name = reads[i % reads.length]!;
        return client.call(name, { pathParams: REQUESTS[name]!.pathParams! });
      }),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const windows = s.windows();
    const classC = windows.classes.C!;
    expect(classC.rejected).toBe(0); // no window 429
    expect(windows.inFlight.rejected).toBe(0); // no Retry-After: -1
    expect(classC.burst.maxUsed).toBeLessThanOrEqual(10);
    expect(classC.steady.maxUsed).toBeLessThanOrEqual(150);
    expect(s.requests().total).toBe(300); // nothing needed a retry
  }, 60_000);

  it("recovers from a 429 storm, pausing for Retry-After", async () => {
    const s = await start({ faults: { rules: [{ kind: "rateLimit", count: 6, retryAfter: 1 }] } });
    const client = clientOf(s);
    const results = await Promise.all(Array.from({ length: 10 }, () => client.call("getZone", { pathParams: { id: ids.zones.rtb } })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(s.requests().byStatus).toEqual({ 200: 10, 429: 6 });
  });

  it("recovers from Retry-After: -1 by lowering its concurrency", async () => {
    const s = await start({ maxInFlight: 2, faults: { delayMs: 20 } });
    const client = clientOf(s, {
      limiterOptions: { burstWindowMs: BURST_MS, steadyWindowMs: STEADY_MS, concurrency: { initial: 6, min: 1, max: 6 } },
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => client.call("getCreative", { pathParams: { id: ids.creatives.nativeTravel } })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const rejected = s.windows().inFlight.rejected;
    expect(rejected).toBeGreaterThan(0);
    // After the cap came down, the rest went through: far fewer refusals than requests.
    expect(rejected).toBeLessThan(12);
    expect(client.limiter.snapshot().concurrency).toBeLessThan(6);
  });

  it("retries a GET through 500s, with and without trace_id", async () => {
    const s = await start({
      faults: {
        rules: [
          { kind: "error500", op: "getZone", count: 1 },
          { kind: "error500NoTrace", op: "getZone", count: 1 },
        ],
      },
    });
    const result = await clientOf(s).call("getZone", { pathParams: { id: ids.zones.widget } });
    expect(result.status).toBe(200);
    expect(s.requests().operations["13"]?.byStatus).toEqual({ 200: 1, 500: 2 });
  });

  it("does not repeat a POST after a 500, and reports its trace_id", async () => {
    const s = await start({ faults: { rules: [{ kind: "error500", op: "createBidStrategy", count: 1 }] } });
    const error = await clientOf(s)
      .call("createBidStrategy", { body: STRATEGY })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiServerError);
    expect((error as ApiServerError).traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.requests().operations["3"]?.count).toBe(1);
  });

  it("does not repeat a POST whose connection dropped after it was applied: exactly one object exists", async () => {
    const s = await start({ faults: { rules: [{ kind: "dropAfter", op: "createBidStrategy", count: 1 }] } });
    const before = s.state().bidStrategies?.length ?? 0;
    const error = await clientOf(s)
      .call("createBidStrategy", { body: STRATEGY })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect((error as ApiNetworkError).mayHaveReachedServer).toBe(true);
    expect(s.requests().operations["3"]?.count).toBe(1);
    expect(s.state().bidStrategies?.length).toBe(before + 1);
  });

  it("honours each caller's rateLimitShare on the account's one limiter: the larger share is never capped by the smaller", async () => {
    const s = await start();
    // Time stands still: the first burst window (class C, 10) never ends, so what each caller got of it stays counted.
    const clock = new FakeClock(Date.now());
    const limiterOptions = { clock, burstWindowMs: BURST_MS, steadyWindowMs: STEADY_MS, shareAcrossProcesses: false };
    const half = clientOf(s, { rateLimitShare: 0.5, limiterOptions });
    const whole = clientOf(s, { limiterOptions });
    expect(whole.limiter).toBe(half.limiter);
    const abort = new AbortController();
    const sent = { half: 0, whole: 0 };
    const run = (client: typeof half, who: keyof typeof sent) =>
      Array.from({ length: 8 }, () =>
        client.call("getZone", { pathParams: { id: ids.zones.push }, signal: abort.signal }).then(
          () => void (sent[who] += 1),
          () => undefined,
        ),
      );
    const calls = [...run(half, "half"), ...run(whole, "whole")];
    await waitFor(() => sent.half + sent.whole === 10);
    abort.abort();
    await Promise.all(calls);
    // The half share's room (5 of 10), and the rest of the window to the caller of the whole limit.
    expect(sent).toEqual({ half: 5, whole: 5 });
    expect(s.requests().total).toBe(10);
  });

  it("shares one account's budget with another process it cannot see: every call gets through", async () => {
    // A second token on the same account stands for another process: its own client and limiter.
    const s = await start({ accounts: [...SEED_ACCOUNTS, { account: "demo", token: "demo-token-b", companyId: "7001" }] });
    const a = clientOf(s);
    const b = clientOf(s, { token: "demo-token-b" });
    expect(b.limiter).not.toBe(a.limiter);
    const run = (client: typeof a) => Array.from({ length: 100 }, () => client.call("getZone", { pathParams: { id: ids.zones.push } }));
    const results = await Promise.all([...run(a), ...run(b)]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Each 429 was sent again until it succeeded: the server saw the 200 and its refusals, nothing else.
    const windows = s.windows();
    const refused = windows.classes.C!.rejected + windows.inFlight.rejected;
    expect(s.requests().byStatus).toEqual(refused > 0 ? { 200: 200, 429: refused } : { 200: 200 });
    // Printed, not asserted: on the real clock at this scale, how many requests the two race into a
    // refusal depends on how loaded the machine is. Pacing by the account's answers, which keeps them
    // few, is asserted without a clock in rateClassWindows.test.ts (room held for another process at
    // the pace the server's count shows) and on a fake one in rateClassWindows.accountPace.test.ts;
    // `npm run bench` (workload f) measures it against the peers.
    process.stdout.write(`two processes sharing nothing: ${refused} of ${200 + refused} requests refused\n`);
  }, 60_000);
});
