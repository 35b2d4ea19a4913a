/**
 * A recorded upgrade program (tests/upgrade/programs.ts): the four dynamic resources and two data
 * sources, as the quickstart declares them. The config key `modifierValue` is the one field the
 * upgrade suite changes (an in-place PATCH of the bid modifier's `value`). The states under
 * tests/upgrade/recorded/dynamic-typescript/ were written by this text: change it only together with
 * a new recording.
 */
import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

export = async () => {
  const config = new pulumi.Config();
  const strategy = new adp.BidStrategy("night-bids", { name: "Night bids", strategy: "percent_add", value: 12.5, maxValue: 3 });
  const group = new adp.CampaignGroup("spring-sale", { name: "Spring sale", color: "#22aa44", items: ["5101", "5102"] });
  const modifier = new adp.BidModifier("dach", {
    bidModifierId: "501",
    value: config.get("modifierValue") ?? "1.40",
    targeting: { countries: { items: ["DE", "AT", "CH"], op: "in" } },
  });
  const variation = new adp.AbTestVariation("hero-image", {
    abTestId: "301",
    variationId: "2",
    name: "Hero image B",
    settings: { image: { en: "https://cdn.example.com/hero-b.png" } },
  });
  const zone = adp.getZoneOutput({ id: "1001" });
  const segments = await adp.getSegments();
  return {
    strategyId: strategy.id,
    groupId: group.id,
    modifierId: modifier.id,
    variationId: variation.id,
    zoneName: zone.name,
    segmentCount: segments.total,
  };
};
