/**
 * A first pulumi-adplatform program: reads a zone, declares a new bid strategy and a new campaign
 * group, and takes over an existing bid modifier. The ids are the ones the bundled simulator seeds
 * (`npx adplatform-simulator --help` lists them); against the platform, use your own.
 */
import * as adp from "pulumi-adplatform";

// A data source: read on every preview and update, never stored as a resource.
const zone = adp.getZoneOutput({ id: "1001" });

// New objects (POST). The API cannot update either, so a changed field replaces them.
const strategy = new adp.BidStrategy("night-bids", { name: "Night bids", strategy: "percent_add", value: 12.5, maxValue: 3 });
const group = new adp.CampaignGroup("spring-sale", { name: "Spring sale", color: "#22aa44", items: ["5101", "5102"] });

// An existing modifier (seeded id 501): the first `pulumi up` adopts it with one PATCH of the
// declared fields; changing `value` later sends a PATCH of `value` alone.
const modifier = new adp.BidModifier("homepage", {
  bidModifierId: "501",
  value: "1.40",
  targeting: { countries: { items: ["DE", "AT", "CH"], op: "in" } },
});

export const zoneName = zone.name;
export const strategyId = strategy.id;
export const groupId = group.id;
export const modifierId = modifier.id;
