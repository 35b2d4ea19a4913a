/**
 * Two ad accounts in one program: brand A's objects go to the account of the stack config
 * (`adplatform:baseUrl` / `adplatform:token`, as in any program), brand B's to an `Account` of its
 * own, whose token comes from this project's secret config `brandBToken`. One `pulumi preview` shows
 * both brands; each account keeps its own rate limits, so both are written in parallel.
 *
 * The same campaign group and bid strategy are declared once per brand, and each brand's zone is
 * read from its own account (the same zone id in two accounts is two reads). Moving a resource to
 * the other account replaces it: the object belongs to the account it was created in.
 *
 * The module exports one async function (Pulumi's Node.js runtime uses its result as the stack
 * outputs), so the same file runs with `pulumi up` here and as an Automation API inline program.
 */
import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

export = async () => {
  const config = new pulumi.Config();
  const zoneId = config.get("zoneId") ?? "1001";

  // `name` identifies the account across token rotations (without it, a new token reads as
  // another account and would replace brand B's resources).
  const brandB = new adp.Account({
    name: "brand-b",
    baseUrl: config.get("brandBBaseUrl") ?? new pulumi.Config("adplatform").require("baseUrl"),
    token: config.requireSecret("brandBToken"),
  });
  const brands: { key: string; title: string; account?: adp.Account }[] = [
    { key: "brand-a", title: "Brand A" },
    { key: "brand-b", title: "Brand B", account: brandB },
  ];

  const outputs: Record<string, pulumi.Output<unknown>> = {};
  for (const { key, title, account } of brands) {
    const group = new adp.CampaignGroup(`${key}-launch`, { name: `${title} launch`, color: "#2255aa", items: ["5101"], account });
    const strategy = new adp.BidStrategy(`${key}-night`, {
      name: `${title} night bids`,
      strategy: "percent_add",
      value: 12.5,
      maxValue: 3,
      account,
    });
    const zone = adp.getZoneOutput({ id: zoneId, account });
    outputs[`${key}-groupId`] = group.id;
    outputs[`${key}-strategyId`] = strategy.id;
    outputs[`${key}-zoneName`] = zone.apply((z) => z.name);
  }
  return outputs;
};
