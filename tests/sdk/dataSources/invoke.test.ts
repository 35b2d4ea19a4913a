/**
 * The `Output` forms inside a Pulumi program (under `pulumi.runtime.setMocks`): a data source feeds a
 * resource's inputs, secret inputs give secret results, unknown inputs during a preview read nothing,
 * and `dependsOn` waits for the resources it names.
 */
import * as pulumi from "@pulumi/pulumi";
import { clearReadCache } from "../../../provider/dataSources";
import { getCountriesOutput, getZoneOutput, getZonePlacementOutput } from "../../../sdk/dataSources";
import { BidModifier } from "../../../sdk/resources";
import { SEED_IDS } from "../../../simulator";
import { callsOf, isSecret, recordingMocks, settle, useDataSourceHarness } from "../../helpers/dataSourceHarness";

const h = useDataSourceHarness();
beforeEach(() => {
  h.sim.reset();
  clearReadCache();
});

/** A plain custom resource for `dependsOn`. */
class Thing extends pulumi.CustomResource {
  constructor(name: string) {
    super("test:index:Thing", name, {});
  }
}

/** Whether an Output's value is known (the SDK's `isKnown`, internal but stable across 3.x). */
const isKnown = (output: pulumi.Output<unknown>) => (output as unknown as { isKnown: Promise<boolean> }).isKnown;

describe("an update (not a preview)", () => {
  let mocks: ReturnType<typeof recordingMocks>;
  beforeEach(async () => {
    mocks = recordingMocks();
    await pulumi.runtime.setMocks(mocks, "project", "stack", false);
  });

  it("getZoneOutput feeds a BidModifier's inputs", async () => {
    const zone = getZoneOutput({ id: SEED_IDS.zones.display });
    const modifier = new BidModifier("homepage-countries", {
      bidModifierId: SEED_IDS.bidModifiers.countries,
      name: zone.apply((z) => `${z.name} bid`),
      targeting: { countries: { items: zone.apply((z) => z.targeting?.countries?.items ?? []), op: "in" } },
      containers: zone.apply((z) => z.targeting?.containers?.items ?? []),
    });
    await settle(modifier.urn);
    const registered = mocks.registered.find((r) => r.name === "homepage-countries");
    expect(registered?.type).toBe("pulumi-nodejs:dynamic/adplatform:BidModifier");
    expect(registered?.inputs).toMatchObject({
      bidModifierId: SEED_IDS.bidModifiers.countries,
      name: "Homepage display bid",
      targeting: { countries: { items: ["DE", "AT", "CH"], op: "in" } },
      containers: ["100"],
    });
    expect(callsOf(h.sim, 13)).toBe(1);
  });

  it("a secret input makes the result secret", async () => {
    const zone = getZoneOutput({ id: pulumi.secret(SEED_IDS.zones.rtb) });
    await expect(settle(zone.apply((z) => z.type))).resolves.toBe("rtb");
    await expect(isSecret(zone)).resolves.toBe(true);
    await expect(isSecret(getZoneOutput({ id: SEED_IDS.zones.rtb }))).resolves.toBe(false);
  });

  it("inputs from other outputs are awaited, then read once", async () => {
    const placement = getZonePlacementOutput({
      zoneId: getZoneOutput({ id: SEED_IDS.zones.display }).id,
      id: pulumi.output(SEED_IDS.zonePlacements.sidebar),
    });
    await expect(settle(placement.apply((p) => p.unitSize))).resolves.toEqual(["300x250"]);
    expect(callsOf(h.sim, 10)).toBe(1);
  });

  it("dependsOn reads after the named resources exist", async () => {
    const thing = new Thing("thing");
    const countries = getCountriesOutput({}, { dependsOn: [thing] });
    await expect(settle(countries.total)).resolves.toBe(249);
    expect(mocks.registered.map((r) => r.name)).toContain("thing");
  });
});

describe("a preview", () => {
  beforeEach(async () => {
    const mocks = recordingMocks();
    // During a preview a new resource has no id yet: the mock returns none, the engine reports it unknown.
    mocks.newResource = (args) => ({ id: undefined, state: args.inputs });
    await pulumi.runtime.setMocks(mocks, "project", "stack", true);
  });

  it("an unknown input gives an unknown result and sends nothing", async () => {
    const zone = getZoneOutput({ id: pulumi.output(pulumi.unknown as unknown as string) });
    await expect(isKnown(zone)).resolves.toBe(false);
    expect(h.sim.requests().total).toBe(0);
  });

  it("dependsOn a resource not created yet reads nothing", async () => {
    const thing = new Thing("later");
    const countries = getCountriesOutput({}, { dependsOn: thing });
    await expect(isKnown(countries)).resolves.toBe(false);
    expect(h.sim.requests().total).toBe(0);
  });

  it("known inputs are read during a preview too, so the plan shows real values", async () => {
    const zone = getZoneOutput({ id: SEED_IDS.zones.push });
    await expect(settle(zone.apply((z) => z.userCache))).resolves.toBe(1);
  });
});
