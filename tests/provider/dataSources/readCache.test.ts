/**
 * Identical reads within one run are made once: in-flight coalescing, a per-run cache keyed by
 * account, operation, path, fields and query, failures not cached, and each caller getting its own
 * copy.
 */
import { clearReadCache } from "../../../provider/dataSources";
import { configureDataSources, getCountries, getZone, getZoneOutput } from "../../../sdk/dataSources";
import { SEED_IDS } from "../../../simulator";
import { DEMO_TOKEN, SECOND_TOKEN, callsOf, settle, useDataSourceHarness } from "../../helpers/dataSourceHarness";

// Fast retries: one suite below injects failures that the client retries once.
const h = useDataSourceHarness({ retryOptions: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 } });
beforeEach(() => {
  h.sim.reset();
  clearReadCache();
  configureDataSources({ baseUrl: h.sim.url, token: DEMO_TOKEN });
});

describe("identical reads share one request", () => {
  it("100 concurrent getCountries() calls make one request and all get the list", async () => {
    const results = await Promise.all(Array.from({ length: 100 }, () => getCountries()));
    expect(callsOf(h.sim, 17)).toBe(1);
    expect(results.every((r) => r.total === 249 && r.items.length === 249)).toBe(true);
  });

  it("later identical reads of the run come from the cache", async () => {
    await getCountries();
    await getCountries({});
    await getZone({ id: SEED_IDS.zones.display });
    await getZone({ id: SEED_IDS.zones.display });
    await settle(getZoneOutput({ id: SEED_IDS.zones.display }));
    expect(callsOf(h.sim, 17)).toBe(1);
    expect(callsOf(h.sim, 13)).toBe(1);
  });

  it("the same fields in another order, or repeated, are the same read", async () => {
    await getZone({ id: SEED_IDS.zones.rtb, fields: ["account", "creator"] });
    await getZone({ id: SEED_IDS.zones.rtb, fields: ["creator", "account", "creator"] });
    expect(callsOf(h.sim, 13)).toBe(1);
  });

  it("a different id, fields, query or account is a different read", async () => {
    await getZone({ id: SEED_IDS.zones.rtb });
    await getZone({ id: SEED_IDS.zones.push });
    await getZone({ id: SEED_IDS.zones.rtb, fields: ["account"] });
    await getZone({ id: SEED_IDS.zones.rtb, query: { lang: "de" } });
    expect(callsOf(h.sim, 13)).toBe(4);
    configureDataSources({ baseUrl: h.sim.url, token: SECOND_TOKEN });
    const second = await getZone({ id: SEED_IDS.zones.rtb });
    expect(callsOf(h.sim, 13, "second")).toBe(1);
    // spec, Authentication 3: data is per account; the seeds differ by company id.
    expect(second.companyId).toBe("7002");
  });

  it("a base URL written with a trailing slash is the same account: one read", async () => {
    await getCountries();
    configureDataSources({ baseUrl: `${h.sim.url}/`, token: DEMO_TOKEN });
    await getCountries();
    expect(callsOf(h.sim, 17)).toBe(1);
  });

  it("a pass-through query reaches the platform as given", async () => {
    await getCountries({ query: { search: "land", page: "2" } });
    const call = h.sim.requests().operations["17"]!.calls[0]!;
    expect(call.query).toEqual({ search: "land", page: "2" });
  });

  it("each caller gets its own copy: mutating one result changes no other", async () => {
    const [a, b] = await Promise.all([getZone({ id: SEED_IDS.zones.display }), getZone({ id: SEED_IDS.zones.display })]);
    a.targeting!.countries!.items!.push("FR");
    a.name = "changed";
    const c = await getZone({ id: SEED_IDS.zones.display });
    expect(b.targeting?.countries?.items).toEqual(["DE", "AT", "CH"]);
    expect(c.name).toBe("Homepage display");
    expect(callsOf(h.sim, 13)).toBe(1);
  });

  it("clearing the cache makes the next read go to the platform again", async () => {
    await getCountries();
    clearReadCache();
    await getCountries();
    expect(callsOf(h.sim, 17)).toBe(2);
  });
});

describe("failed reads are not cached", () => {
  it("a read that failed is tried again by the next caller, and concurrent callers share the failure", async () => {
    // Both attempts the client makes (maxAttempts 2) fail with a 500; the rule is then spent.
    h.sim.setFaults({ rules: [{ kind: "error500", op: 17, count: 2 }] });
    const concurrent = await Promise.allSettled([getCountries(), getCountries(), getCountries()]);
    expect(concurrent.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(callsOf(h.sim, 17)).toBe(2);
    const retried = await getCountries();
    expect(retried.total).toBe(249);
    expect(callsOf(h.sim, 17)).toBe(3);
  });

  it("an unknown id is asked again on the next call (a 404 is an answer of this moment)", async () => {
    await expect(getZone({ id: "999" })).rejects.toThrow("not found");
    await expect(getZone({ id: "999" })).rejects.toThrow("not found");
    expect(callsOf(h.sim, 13)).toBe(2);
  });
});
