/**
 * The four resources through the real dynamic-provider plugin against the simulator with injected
 * faults (scripted rules, or shares drawn from the simulator's seeded PRNG). For each fault the
 * careful outcome: success after retries where repeating is safe (GET, PATCH, and any request the
 * server refused with a 429); otherwise a clear error, with the simulator's objects and what the
 * plugin returned agreeing: no duplicate from a retried POST, no PATCH reported applied when it was
 * not, and an ambiguous POST reported with how to adopt what it may have created.
 *
 * Time is scaled (plugin timeout `PLUGIN_TIMEOUT_MS`, Retry-After of 1 s); nothing asserts a duration.
 */
import { createServer } from "node:net";
import { SEED_IDS, type FaultRule, type WireRecord } from "../../simulator";
import { cleanEnv } from "../helpers/dynamicProviderHarness";
import { RECOGNISABLE_TOKEN, secretValue, type LifecycleEnv } from "../helpers/lifecycleEnv";
import { eventually, failureOf, PLUGIN_TIMEOUT_MS, SLOW_MS, startFaultEnv } from "./faultEnv";

// Child processes start slowly on a loaded machine; generous, never asserted.
jest.setTimeout(60_000);

let env: LifecycleEnv;
beforeAll(async () => {
  env = await startFaultEnv();
});
afterAll(async () => {
  await env.close();
});
beforeEach(() => {
  env.sim.reset();
  env.engine.clear();
});

const MODIFIER = SEED_IDS.bidModifiers.countries;
const GROUP = SEED_IDS.campaignGroups.summer;
const OP = { patchModifier: 1, postGroup: 2, postStrategy: 3, patchVariation: 4, getGroup: 19 } as const;
const seededStrategyIds = new Set<string>(Object.values(SEED_IDS.bidStrategies));
const seededGroupIds = new Set<string>(Object.values(SEED_IDS.campaignGroups));

const script = (...rules: Partial<FaultRule>[]) => env.sim.setFaults({ rules: rules as FaultRule[] });
const statuses = (op: number) => env.calls(op).map((c) => c.status);
const strategiesNamed = (name: string) => env.sim.state().bidStrategies.filter((s) => s.name === name);
const groupsNamed = (name: string) => env.sim.state().campaignGroups.filter((g) => g.name === name);
const createdStrategies = () => env.sim.state().bidStrategies.filter((s) => !seededStrategyIds.has(String(s.id)));
const createdGroups = () => env.sim.state().campaignGroups.filter((g) => !seededGroupIds.has(String(g.id)));
const storedModifier = (): WireRecord => env.sim.state().bidModifiers.find((m) => m.id === MODIFIER)!;

/** Refresh (engine `Read`) of the seeded group 701: one GET op 19. */
const refreshGroup = () =>
  env.plugin.read(GROUP, env.urn("CampaignGroup", "g"), env.inputs("CampaignGroup", { name: "Summer", color: "#ff9900", items: ["1"] }));
const strategy = (name: string, extra: Record<string, unknown> = {}) =>
  env.inputs("BidStrategy", { name, strategy: "exact", value: 1.5, maxValue: 3, ...extra });
const group = (name: string, extra: Record<string, unknown> = {}) =>
  env.inputs("CampaignGroup", { name, color: "#112233", items: ["11", "12"], ...extra });
const modifier = (name: string) => env.inputs("BidModifier", { bidModifierId: MODIFIER, name, value: "1.25" });
const variation = (name: string) =>
  env.inputs("AbTestVariation", { abTestId: SEED_IDS.abTests.homepage, variationId: SEED_IDS.abTestVariations.homepageVariant, name });

/** Creates through the plugin after `Check`, as the engine does. */
async function create(kind: Parameters<LifecycleEnv["urn"]>[0], name: string, news: Record<string, unknown>) {
  const checked = await env.plugin.check(env.urn(kind, name), {}, news);
  expect(checked.failures).toEqual([]);
  return env.plugin.create(env.urn(kind, name), { ...checked.inputs, __provider: news.__provider });
}

/** The phrases of the ambiguous-create error: what may exist, and how to adopt it. */
function expectAmbiguousCreate(message: string, noun: string, name: string): void {
  expect(message).toContain(`the create request may have reached the platform, so a ${noun} may now exist`);
  expect(message).toContain(`named ${JSON.stringify(name)}`);
  expect(message).toContain('set `adoptId: "<its id>"`');
}

describe("20% of requests answered 500 (seeded), with and without trace_id", () => {
  beforeEach(() => {
    env.sim.setFaults({ errorRate: 0.2, errorNoTraceShare: 0.5 });
  });

  it("PATCH and GET operations succeed through them, and the platform ends with the declared values", async () => {
    const urn = env.urn("BidModifier", "m");
    let olds = (await create("BidModifier", "m", modifier("v0"))).properties;
    for (let i = 1; i <= 6; i++) {
      olds = (await env.plugin.update(MODIFIER, urn, olds, modifier(`v${i}`))).properties;
    }
    const vUrn = env.urn("AbTestVariation", "v");
    let vOlds = (await create("AbTestVariation", "v", variation("w0"))).properties;
    for (let i = 1; i <= 3; i++) vOlds = (await env.plugin.update("301/2", vUrn, vOlds, variation(`w${i}`))).properties;
    for (let i = 0; i < 6; i++) {
      const read = await refreshGroup();
      expect(read.id).toBe(GROUP);
    }

    expect(olds).toMatchObject({ name: "v6" });
    expect(storedModifier()).toMatchObject({ name: "v6", value: "1.25" });
    expect(env.sim.state().abTestVariations.find((v) => v.ab_test_id === "301" && v.id === "2")).toMatchObject({ name: "w3" });
    // The seed served both 500 shapes of the spec, and every one of them was retried to success.
    const faults = [OP.patchModifier, OP.patchVariation, OP.getGroup].flatMap((op) => env.calls(op).map((c) => c.fault));
    expect(faults).toContain("error500");
    expect(faults).toContain("error500NoTrace");
    for (const op of [OP.patchModifier, OP.patchVariation, OP.getGroup]) {
      const ok = statuses(op).filter((s) => s !== 500).length;
      expect(ok).toBe(op === OP.getGroup ? 6 : op === OP.patchModifier ? 7 : 4);
    }
  });

  it("a POST is never repeated: each create fails clearly or creates exactly one object", async () => {
    const names = Array.from({ length: 10 }, (_, i) => `Storm strategy ${i}`);
    const succeeded: string[] = [];
    const failed: string[] = [];
    for (const name of names) {
      try {
        const created = await create("BidStrategy", name, strategy(name));
        expect(strategiesNamed(name).map((s) => String(s.id))).toEqual([created.id]);
        succeeded.push(name);
      } catch (error) {
        const message = (error as { details: string }).details;
        expectAmbiguousCreate(message, "bid strategy", name);
        expect(message).toMatch(/500 Internal Server Error/);
        failed.push(name);
      }
    }
    expect(succeeded.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    // One POST per create, never a retry; the platform holds exactly the strategies that succeeded
    // (the simulator's 500s come before the request is applied).
    expect(env.calls(OP.postStrategy)).toHaveLength(names.length);
    expect(
      createdStrategies()
        .map((s) => s.name)
        .sort(),
    ).toEqual([...succeeded].sort());
  });
});

describe("a 500 on a POST", () => {
  it("with trace_id: the error quotes it and says how to adopt; nothing is retried", async () => {
    script({ kind: "error500", op: OP.postGroup });
    const message = await failureOf(create("CampaignGroup", "g", group("Traced")));
    expectAmbiguousCreate(message, "campaign group", "Traced");
    expect(message).toMatch(/\(trace_id [0-9a-f-]{36}\)/);
    expect(env.calls(OP.postGroup)).toHaveLength(1);
    expect(createdGroups()).toEqual([]);
  });

  it("without trace_id: the error carries the server's message instead", async () => {
    script({ kind: "error500NoTrace", op: OP.postGroup });
    const message = await failureOf(create("CampaignGroup", "g", group("Untraced")));
    expectAmbiguousCreate(message, "campaign group", "Untraced");
    expect(message).toContain("An unexpected error occurred, please try again later");
    expect(message).not.toContain("trace_id");
    expect(env.calls(OP.postGroup)).toHaveLength(1);
  });
});

describe("slow responses past the client's timeout", () => {
  it("a PATCH that timed out is sent again and succeeds", async () => {
    const urn = env.urn("BidModifier", "m");
    const olds = (await create("BidModifier", "m", modifier("before"))).properties;
    script({ kind: "delay", op: OP.patchModifier, delayMs: SLOW_MS });
    const updated = await env.plugin.update(MODIFIER, urn, olds, modifier("after"));
    expect(updated.properties).toMatchObject({ name: "after" });
    // The timed-out attempt is still applied when its delay ends: the same body, so the same state.
    await eventually(() => env.calls(OP.patchModifier).length === 3, "the delayed PATCH settled");
    expect(storedModifier()).toMatchObject({ name: "after" });
    expect(env.plugin.stderr()).toContain(`request timed out after ${PLUGIN_TIMEOUT_MS} ms`);
  });

  it("a GET that timed out is sent again and the refresh succeeds", async () => {
    script({ kind: "delay", op: OP.getGroup, delayMs: SLOW_MS });
    const read = await refreshGroup();
    expect(read.id).toBe(GROUP);
    await eventually(() => env.calls(OP.getGroup).length === 2, "both GETs settled");
  });

  it("a POST that timed out is not repeated; the error says how to adopt, and adopting finds the one object", async () => {
    script({ kind: "delay", op: OP.postStrategy, delayMs: SLOW_MS });
    const message = await failureOf(create("BidStrategy", "s", strategy("Slow one")));
    expectAmbiguousCreate(message, "bid strategy", "Slow one");
    expect(message).toContain(`request timed out after ${PLUGIN_TIMEOUT_MS} ms`);
    // The server finishes the POST after the client gave up: one object, which the state lacks.
    await eventually(() => strategiesNamed("Slow one").length === 1, "the delayed POST was applied");
    expect(env.calls(OP.postStrategy)).toHaveLength(1);
    const [orphan] = strategiesNamed("Slow one");

    const adopted = await create("BidStrategy", "s", strategy("Slow one", { adoptId: String(orphan.id) }));
    expect(adopted.id).toBe(String(orphan.id));
    expect(env.calls(OP.postStrategy)).toHaveLength(1);
    expect(strategiesNamed("Slow one")).toHaveLength(1);
  });
});

describe("connections dropped", () => {
  it.each(["dropBefore", "dropAfter"] as const)("%s a PATCH: sent again, succeeds, the platform holds the new values", async (kind) => {
    const vUrn = env.urn("AbTestVariation", "v");
    const olds = (await create("AbTestVariation", "v", variation("before"))).properties;
    script({ kind, op: OP.patchVariation });
    await env.plugin.update("301/2", vUrn, olds, variation("after"));
    expect(statuses(OP.patchVariation)).toEqual([204, kind === "dropBefore" ? "dropped-before" : "dropped-after", 204]);
    expect(env.sim.state().abTestVariations.find((v) => v.ab_test_id === "301" && v.id === "2")).toMatchObject({ name: "after" });
  });

  it("dropBefore a POST: reported as ambiguous, not repeated, and nothing was created", async () => {
    script({ kind: "dropBefore", op: OP.postGroup });
    const message = await failureOf(create("CampaignGroup", "g", group("Dropped early")));
    expectAmbiguousCreate(message, "campaign group", "Dropped early");
    expect(statuses(OP.postGroup)).toEqual(["dropped-before"]);
    expect(createdGroups()).toEqual([]);
  });

  it("dropAfter a POST: reported as ambiguous, not repeated; the one group it created is adopted by adoptId", async () => {
    script({ kind: "dropAfter", op: OP.postGroup });
    const message = await failureOf(create("CampaignGroup", "g", group("Dropped late")));
    expectAmbiguousCreate(message, "campaign group", "Dropped late");
    expect(statuses(OP.postGroup)).toEqual(["dropped-after"]);
    const orphans = groupsNamed("Dropped late");
    expect(orphans).toHaveLength(1);

    const adopted = await create("CampaignGroup", "g", group("Dropped late", { adoptId: String(orphans[0].id) }));
    expect(adopted.id).toBe(String(orphans[0].id));
    expect(adopted.properties).toMatchObject({ name: "Dropped late", color: "#112233", items: ["11", "12"], size: 2 });
    expect(env.calls(OP.postGroup)).toHaveLength(1);
    expect(groupsNamed("Dropped late")).toHaveLength(1);
  });
});

describe("malformed JSON bodies", () => {
  it("a GET whose body arrives cut short is sent again and the refresh succeeds", async () => {
    script({ kind: "malformed", op: OP.getGroup });
    const read = await refreshGroup();
    expect(read.properties).toMatchObject({ name: expect.any(String), size: expect.any(Number) });
    expect(statuses(OP.getGroup)).toEqual([200, 200]);
    expect(env.calls(OP.getGroup).map((c) => c.fault)).toEqual(["malformed", undefined]);
  });

  it("a POST whose 201 body is unreadable is not repeated: one object exists and the error says how to adopt it", async () => {
    script({ kind: "malformed", op: OP.postStrategy });
    const message = await failureOf(create("BidStrategy", "s", strategy("Garbled")));
    expectAmbiguousCreate(message, "bid strategy", "Garbled");
    expect(message).toContain("response body is not valid JSON");
    expect(env.calls(OP.postStrategy)).toHaveLength(1);
    expect(strategiesNamed("Garbled")).toHaveLength(1);
  });
});

describe("a 201 whose body names the id but has the wrong shape", () => {
  it("the POST is not repeated; the error names the created group's id and the adoptId to set, and adopting it converges", async () => {
    script({ kind: "wrongShape", op: OP.postGroup });
    const message = await failureOf(create("CampaignGroup", "g", group("Misshapen")));
    const orphans = groupsNamed("Misshapen");
    expect(orphans).toHaveLength(1);
    const id = String(orphans[0].id);
    expect(message).toContain("the create request may have reached the platform, so a campaign group may now exist");
    expect(message).toContain("response body does not match the createCampaignGroup schema");
    expect(message).toContain(`The platform may have created campaign group ${id} (its answer named that id)`);
    expect(message).toContain(`set \`adoptId: "${id}"\` on this resource and run again to take it over`);
    expect(message).not.toContain("<its id>");
    expect(statuses(OP.postGroup)).toEqual([201]);

    const adopted = await create("CampaignGroup", "g", group("Misshapen", { adoptId: id }));
    expect(adopted.id).toBe(id);
    expect(adopted.properties).toMatchObject({ name: "Misshapen", color: "#112233", items: ["11", "12"] });
    expect(env.calls(OP.postGroup)).toHaveLength(1);
    expect(groupsNamed("Misshapen")).toHaveLength(1);
  });
});

describe("429 storms", () => {
  it("Retry-After seconds: a POST refused by the limiter is sent again after the wait, creating one object", async () => {
    script({ kind: "rateLimit", op: OP.postStrategy, count: 2, retryAfter: 1 });
    const created = await create("BidStrategy", "s", strategy("Patient"));
    expect(statuses(OP.postStrategy)).toEqual([429, 429, 201]);
    expect(strategiesNamed("Patient").map((s) => String(s.id))).toEqual([created.id]);
    // A Retry-After within the burst window: the call waits in the limiter until the refused window
    // has room, not for the Retry-After plus jitter it would otherwise sleep.
    expect(env.plugin.stderr()).toMatch(
      /retry when the refused window has room, not after \d+ ms: 429, Retry-After 1000 ms \(\+\d+ ms jitter, 1 429 in a row\)/,
    );
  });

  it("Retry-After -1: a PATCH backs off and succeeds", async () => {
    script({ kind: "concurrency", op: OP.patchModifier, count: 3 });
    await create("BidModifier", "m", modifier("after a storm"));
    expect(statuses(OP.patchModifier)).toEqual([429, 429, 429, 204]);
    expect(storedModifier()).toMatchObject({ name: "after a storm" });
    expect(env.plugin.stderr()).toContain("429, Retry-After -1 (too many in flight)");
  });

  it("a storm that outlasts the retry budget fails the POST clearly, naming the setting to raise, and nothing was created", async () => {
    // A 429 is never capped by a count of attempts, only by the time budget: a short one here.
    const plugin = await env.startPlugin(
      cleanEnv({ ADPLATFORM_TIMEOUT_MS: String(PLUGIN_TIMEOUT_MS), ADPLATFORM_DEBUG: "1", ADPLATFORM_RETRY_BUDGET_MS: "2000" }),
    );
    try {
      await plugin.configure({ "adplatform:baseUrl": env.sim.url, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) });
      script({ kind: "concurrency", op: OP.postGroup, count: 1_000 });
      const urn = env.urn("CampaignGroup", "g");
      const checked = await plugin.check(urn, {}, group("Never"));
      const message = await failureOf(plugin.create(urn, { ...checked.inputs, __provider: env.providers.CampaignGroup.provider }));
      expect(message).toContain('CampaignGroup "Never": createCampaignGroup (POST /v2/adex/groups) failed: 429 Too Many Requests');
      expect(message).toContain("the retry budget of 2000 ms from the first send ran out");
      expect(message).toContain("set ADPLATFORM_RETRY_BUDGET_MS or retryOptions.maxTotalMs to wait longer");
      // Every send was refused for too many in flight, none worked on: the message counts them as such.
      expect(message).toMatch(/\(\d+ sends? refused with 429;/);
      // A 429 was refused before the request was carried out: no adoption advice, since nothing exists.
      expect(message).not.toContain("may have reached");
      expect(statuses(OP.postGroup).every((s) => s === 429)).toBe(true);
      expect(createdGroups()).toEqual([]);
    } finally {
      await plugin.close();
    }
  });
});

describe("a PATCH is never reported applied when it was not", () => {
  it("an update that fails every attempt leaves the platform and the recorded state at the old values", async () => {
    const urn = env.urn("BidModifier", "m");
    const olds = (await create("BidModifier", "m", modifier("kept"))).properties;
    script({ kind: "error500", op: OP.patchModifier, count: 5 });
    const message = await failureOf(env.plugin.update(MODIFIER, urn, olds, modifier("lost")));
    expect(message).toMatch(
      new RegExp(
        [
          String.raw`^BidModifier "501": updateBidModifier \(PATCH /v2/adex/bid-modifiers/501\) failed: `,
          String.raw`500 Internal Server Error \(trace_id [0-9a-f-]{36}\)$`,
        ].join(""),
      ),
    );
    expect(statuses(OP.patchModifier)).toEqual([204, 500, 500, 500, 500, 500]);
    expect(storedModifier()).toMatchObject({ name: "kept" });
    // The engine keeps the old state after a failed update, so the next run still sees the change.
    const diff = await env.plugin.diff(MODIFIER, urn, olds, modifier("lost"));
    expect(diff.changes).toBe("some");
  });
});

describe("a connection refused", () => {
  it("nothing was sent, so even a POST is tried again; when every attempt is refused the error has no adoption advice", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const plugin = await env.startPlugin(cleanEnv({ ADPLATFORM_DEBUG: "1" }));
    try {
      await plugin.configure({ "adplatform:baseUrl": `http://127.0.0.1:${port}`, "adplatform:token": secretValue(RECOGNISABLE_TOKEN) });
      const checked = await plugin.check(env.urn("BidStrategy", "r"), {}, strategy("Refused"));
      const message = await failureOf(
        plugin.create(env.urn("BidStrategy", "r"), { ...checked.inputs, __provider: env.providers.BidStrategy.provider }),
      );
      expect(message).toContain("connection refused (ECONNREFUSED)");
      expect(message).not.toContain("may have reached");
      expect(plugin.stderr().match(/retry in \d+ ms: connection failed before sending/g)).toHaveLength(4);
      expect(plugin.stderr()).toContain("giving up: gave up after 5 attempts");
    } finally {
      await plugin.close();
    }
  });
});
