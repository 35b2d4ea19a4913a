/**
 * The client against another machine on the same account that it cannot see: a child process
 * with a limiter state directory of its own (so it shares nothing, as two CI runners share
 * nothing) fires `getZone` as fast as a naive client does (no limiter: it waits only what each
 * 429 says) while this process's client makes creates and reads. The 429s the competitor causes
 * are ridden out by the time budget alone: every call succeeds, every create makes one object.
 *
 * Windows are the spec's scaled by 1/10 (100 ms and 6 s), `Retry-After` in tenths of a second to
 * match. Only outcomes are asserted, never durations: on a loaded machine the competitor may win
 * more or fewer windows, and the budget is far above anything the contention can cost.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeApiClients, getApiClient } from "../../../provider/client";
import { SEED_IDS, startSimulator, type RunningSimulator } from "../../../simulator";
import { nodeScriptJson } from "../../helpers/nodeScript";

const TOKEN = "demo-token";
const WINDOWS = { burstWindowMs: 100, steadyWindowMs: 6_000 } as const;
/** How long the competitor fires: past one whole steady window, so it also holds the account while that is spent. */
const COMPETITOR_MS = 8_000;
/** Its concurrent loops: more than the simulator's in-flight limit (8), so `-1` refusals come too. */
const COMPETITOR_LOOPS = 16;
const CREATES = 20;
const READS = 20;
const OP = { createBidStrategy: "3", getCampaignGroup: "19", getZone: "13" } as const;

// Child processes start slowly on a loaded machine, and the calls wait out the competitor; never asserted.
jest.setTimeout(120_000);

/**
 * The naive competitor, plain Node: `COMPETITOR_LOOPS` loops that each send a GET, and after a
 * 429 wait what `Retry-After` says (a `-1` gives no time: a random wait under half a burst
 * window), then send again, until the time is up. Prints its counts as JSON.
 */
const COMPETITOR = `
const [url, token, durationMs, loops, burstMs] = process.argv.slice(1);
const until = Date.now() + Number(durationMs);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const counts = { ok: 0, rateLimited: 0, inFlight: 0, other: 0 };
async function loop() {
  while (Date.now() < until) {
    let response;
    try {
      response = await fetch(url + "/v2/adex/zones/1001", { headers: { authorization: "Bearer " + token } });
      await response.arrayBuffer();
    } catch {
      counts.other += 1;
      await sleep(5);
      continue;
    }
    if (response.status !== 429) { counts[response.ok ? "ok" : "other"] += 1; continue; }
    const after = Number(response.headers.get("retry-after"));
    if (after === -1) { counts.inFlight += 1; await sleep(Math.random() * Number(burstMs) / 2); }
    else { counts.rateLimited += 1; await sleep(after * 1000); }
  }
}
Promise.all(Array.from({ length: Number(loops) }, loop)).then(() => process.stdout.write(JSON.stringify(counts)));
`;

interface CompetitorCounts {
  ok: number;
  rateLimited: number;
  inFlight: number;
  other: number;
}

let sim: RunningSimulator;
let competitorDir: string;
beforeAll(async () => {
  // Retry-After in tenths of a second: the platform's whole seconds, scaled with the windows.
  sim = await startSimulator({ ...WINDOWS, retryAfterUnitMs: 100 });
  competitorDir = mkdtempSync(join(tmpdir(), "adplatform-competitor-"));
});
afterAll(async () => {
  await closeApiClients();
  await sim.close();
  rmSync(competitorDir, { recursive: true, force: true });
});

/** Starts the competitor; resolves with its counts when its time is up. */
function startCompetitor(): Promise<CompetitorCounts> {
  const args = [sim.url, TOKEN, String(COMPETITOR_MS), String(COMPETITOR_LOOPS), String(WINDOWS.burstWindowMs)];
  return nodeScriptJson<CompetitorCounts>("competitor", COMPETITOR, args, {
    env: { ...process.env, ADPLATFORM_LIMITS_DIR: competitorDir },
  });
}

/** Polls until the competitor's requests show in the simulator's log (bounded by a count of polls, not timed). */
async function competitorSending(): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if ((sim.requests().operations[OP.getZone]?.count ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the competitor never sent a request");
}

describe("another machine saturating the account, sharing nothing with this one", () => {
  it("every create and read of this client gets through its 429s within the time budget, and each create makes one object", async () => {
    const competitor = startCompetitor();
    await competitorSending();

    const rateLimitedLines: string[] = [];
    const client = getApiClient({
      baseUrl: sim.url,
      token: TOKEN,
      limiterOptions: { ...WINDOWS },
      // The default attempts (5) and backoff scaled like the windows; the budget as the default's
      // 10 minutes scaled by 1/10: far above the competitor's run.
      retryOptions: { baseDelayMs: 25, maxDelayMs: 2_000, maxTotalMs: 60_000 },
      onDebug: (line) => {
        if (/retry .*: 429/.test(line)) rateLimitedLines.push(line);
      },
    });
    const names = Array.from({ length: CREATES }, (_, i) => `contended-${i}`);
    const creates = names.map((name) =>
      client.call("createBidStrategy", { body: { name, pricing_model: "cpc", strategy: "exact", value: 1, max_value: 2 } }),
    );
    const reads = Array.from({ length: READS }, () =>
      client.call("getCampaignGroup", { pathParams: { id: SEED_IDS.campaignGroups.summer } }),
    );
    const settled = await Promise.allSettled([...creates, ...reads]);
    const counts = await competitor;

    // Every call succeeded: none failed on a 429.
    const failures = settled.filter((s) => s.status === "rejected").map((s) => String((s as PromiseRejectedResult).reason));
    expect(failures).toEqual([]);
    // The competitor did saturate the account: it was refused, and so were this client's sends.
    expect(counts.rateLimited + counts.inFlight).toBeGreaterThan(0);
    expect(counts.ok).toBeGreaterThan(0);
    const log = sim.requests();
    const refusedOurs =
      (log.operations[OP.createBidStrategy]?.byStatus["429"] ?? 0) + (log.operations[OP.getCampaignGroup]?.byStatus["429"] ?? 0);
    expect(refusedOurs).toBeGreaterThan(0);
    expect(rateLimitedLines.length).toBe(refusedOurs);
    // Each create was carried out exactly once: the 429s were sent again, never a worked-on POST.
    expect(log.operations[OP.createBidStrategy]?.byStatus["201"]).toBe(CREATES);
    const created = sim.state().bidStrategies.filter((s) => String(s.name).startsWith("contended-"));
    expect(created.map((s) => s.name).sort()).toEqual([...names].sort());
    expect(log.operations[OP.getCampaignGroup]?.byStatus["200"]).toBe(READS);
  });
});
