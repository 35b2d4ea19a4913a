"""A first pulumi-adplatform program in Python (the native provider): reads a zone, declares a new
bid strategy and a new campaign group, and takes over an existing bid modifier. The ids are the
ones the bundled simulator seeds (`npx adplatform-simulator --help` lists them); against the
platform, use your own."""
import pulumi
import pulumi_adplatform as adplatform

# A data source: read on every preview and update, never stored as a resource.
zone = adplatform.get_zone_output(id="1001")

# New objects (POST). The API cannot update either, so a changed field replaces them.
strategy = adplatform.BidStrategy("night-bids", name="Night bids", strategy="percent_add", value=12.5, max_value=3)
group = adplatform.CampaignGroup("spring-sale", name="Spring sale", color="#22aa44", items=["5101", "5102"])

# An existing modifier (seeded id 501): the first `pulumi up` adopts it with one PATCH of the
# declared fields; changing `value` later sends a PATCH of `value` alone.
modifier = adplatform.BidModifier(
    "homepage",
    bid_modifier_id="501",
    value="1.40",
    targeting={"countries": {"items": ["DE", "AT", "CH"], "op": "in"}},
)

pulumi.export("zoneName", zone.name)
pulumi.export("strategyId", strategy.id)
pulumi.export("groupId", group.id)
pulumi.export("modifierId", modifier.id)
