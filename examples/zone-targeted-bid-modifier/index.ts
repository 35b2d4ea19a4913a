/**
 * Zone-targeted bid modifier: an existing bid modifier is pointed at the countries a zone targets.
 *
 * The zone is read with `getZoneOutput` (GET op 13) and the country reference list with
 * `getCountriesOutput` (GET op 17, one request however often it is read). The modifier targets the
 * zone's countries plus the ones in `extraCountries`, keeping only codes the platform knows, sorted
 * so the order of the zone's list never shows as a diff. When the zone's targeting changes on the
 * platform, the next `pulumi preview --diff` shows the modifier's `targeting` as an in-place update,
 * and `pulumi up` sends a PATCH with `targeting` alone.
 *
 * The module exports one async function (Pulumi's Node.js runtime uses its result as the stack
 * outputs), so the same file runs with `pulumi up` here and as an Automation API inline program.
 */
import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

export = async () => {
  const config = new pulumi.Config();
  const zoneId = config.get("zoneId") ?? "1001";
  const extraCountries = config.getObject<string[]>("extraCountries") ?? [];

  const zone = adp.getZoneOutput({ id: zoneId });
  // Plain arrays only inside Outputs: Pulumi unwraps Output values deeply, and a Set does not survive.
  const known = adp.getCountriesOutput().apply((c) => c.items.map((country) => country.code));

  const countries = pulumi.all([zone, known]).apply(([z, codes]) => {
    const wanted = [...(z.targeting?.countries?.items ?? []), ...extraCountries].map((code) => code.toUpperCase());
    return [...new Set(wanted)].filter((code) => codes.includes(code)).sort();
  });

  const modifier = new adp.BidModifier("zone-countries", {
    bidModifierId: config.get("bidModifierId") ?? "502",
    name: zone.apply((z) => `Countries of zone ${z.name ?? zoneId}`),
    value: config.get("value") ?? "1.25",
    maxValue: config.get("maxValue") ?? "2.5000",
    targeting: { countries: { items: countries, op: "in" } },
  });

  return {
    modifierId: modifier.id,
    zoneName: zone.apply((z) => z.name),
    countries,
  };
};
