/**
 * spec, rule 9 and Limits 7: `fields` on getZone / getCreative is a typed list of subresources, sent
 * as one `fields` parameter and charged at its true cost: two fields cost 3 calls, on the client's
 * limiter and on the platform's windows alike. Real (unscaled) windows, so the X-RateLimit numbers
 * are the spec's.
 */
import { getApiClient } from "../../../provider/client";
import { DataSourceArgumentError, getCreative, getZone } from "../../../sdk/dataSources";
import { SEED_IDS } from "../../../simulator";
import { DEMO_TOKEN, callsOf, useDataSourceHarness } from "../../helpers/dataSourceHarness";

const h = useDataSourceHarness({ windows: "spec" });

describe("fields cost (spec, Limits 7)", () => {
  it("getZone with two fields is one request that costs 3, on both sides", async () => {
    const zone = await getZone({ id: SEED_IDS.zones.display, fields: ["account", "creator"] });
    expect(zone.account).toEqual({
      id: "2201",
      name: "Acme Publishing",
      status: "active",
      image: "https://cdn.example.com/avatars/2201.png",
    });
    expect(zone.creator?.name).toBe("Dana Ops");

    const calls = h.sim.requests().operations["13"]!.calls;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.query).toEqual({ fields: "account,creator" });
    expect(calls[0]!.cost).toBe(3);
    // The platform's windows: 3 of 150 per minute and 3 of 10 per second used by this one request.
    const server = h.sim.windows().classes.C!;
    expect(server.steady.used).toBe(3);
    expect(server.burst.used).toBe(3);
    // The client's limiter charged the same 3.
    const client = getApiClient({ baseUrl: h.sim.url, token: DEMO_TOKEN }).limiter.snapshot().windows.C!;
    expect(client.steady.used).toBe(3);
  });

  it("getCreative's fields are charged the same way (the spec names none: any well-formed name)", async () => {
    await getCreative({ id: SEED_IDS.creatives.nativeShoes, fields: ["campaign"] });
    const call = h.sim.requests().operations["8"]!.calls.at(-1)!;
    expect(call.query).toEqual({ fields: "campaign" });
    expect(call.cost).toBe(2);
  });

  it("a subresource outside the list, or a malformed one, is refused before anything is sent", async () => {
    const before = h.sim.requests().total;
    // @ts-expect-error: "owner" is not a ZoneField
    const zone = getZone({ id: SEED_IDS.zones.display, fields: ["account", "owner"] });
    await expect(zone).rejects.toThrow(DataSourceArgumentError);
    await expect(zone).rejects.toThrow('getZone: invalid arguments: fields[1]: must be one of "account", "creator"');
    await expect(getCreative({ id: SEED_IDS.creatives.nativeShoes, fields: ["a,b"] })).rejects.toThrow(
      "getCreative: invalid arguments: fields[0]: must be a subresource name: lowercase letters, digits and _",
    );
    expect(h.sim.requests().total).toBe(before);
    expect(callsOf(h.sim, 13)).toBe(1);
  });
});
