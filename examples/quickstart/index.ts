/**
 * Quickstart: the four resources of pulumi-adplatform and two data sources, in one small program.
 *
 * - a new `BidStrategy` (POST; any change replaces it, since the API cannot update strategies),
 * - a new `CampaignGroup` (POST; any change replaces it),
 * - the settings of an existing `BidModifier` (PATCH; a change sends only the changed fields),
 * - the settings of an existing `AbTestVariation` (PATCH),
 * - a zone read with `getZoneOutput` and the segment list read with `getSegments`.
 *
 * The defaults are ids the bundled simulator seeds (simulator/fixtures/README.md); against the real
 * platform, set your own ids with `pulumi config set` (see Pulumi.yaml).
 *
 * The module exports one async function: Pulumi's Node.js runtime calls an exported function and
 * uses what it returns as the stack outputs. That keeps the program usable both by `pulumi up` in
 * this folder and as an Automation API inline program (scripts/demo, tests/e2e), which calls the
 * same function.
 */
import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

export = async () => {
  const config = new pulumi.Config();

  const strategy = new adp.BidStrategy("night-bids", {
    name: config.get("strategyName") ?? "Night bids",
    strategy: "percent_add",
    // Changing this replaces the strategy: the API has no update for strategies.
    value: config.getNumber("strategyValue") ?? 12.5,
    maxValue: 3,
  });

  const group = new adp.CampaignGroup("spring-sale", {
    name: "Spring sale",
    color: config.get("groupColor") ?? "#22aa44",
    items: config.getObject<string[]>("campaignIds") ?? ["5101", "5102"],
  });

  // An existing modifier (seeded id 501): creating the resource adopts it with one PATCH; changing
  // `value` later sends a PATCH with `value` alone.
  const modifier = new adp.BidModifier("dach", {
    bidModifierId: config.get("bidModifierId") ?? "501",
    value: config.get("modifierValue") ?? "1.40",
    targeting: { countries: { items: ["DE", "AT", "CH"], op: "in" } },
  });

  const variation = new adp.AbTestVariation("hero-image", {
    abTestId: config.get("abTestId") ?? "301",
    variationId: config.get("variationId") ?? "2",
    name: "Hero image B",
    settings: { image: { en: "https://cdn.example.com/hero-b.png", de: "https://cdn.example.com/hero-b-de.png" } },
  });

  // Data sources run in this process, with the same adplatform:baseUrl / adplatform:token config.
  const zone = adp.getZoneOutput({ id: config.get("zoneId") ?? "1001" });
  const segments = await adp.getSegments();
  const firstSegment = segments.items[0];

  return {
    strategyId: strategy.id,
    groupId: group.id,
    modifierId: modifier.id,
    variationId: variation.id,
    zone: zone.apply((z) => ({ id: z.id, name: z.name, type: z.type })),
    segmentCount: segments.total,
    firstSegment: firstSegment === undefined ? undefined : { id: firstSegment.id, name: firstSegment.name },
  };
};
