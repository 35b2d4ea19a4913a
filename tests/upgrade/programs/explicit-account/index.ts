/**
 * A recorded upgrade program (tests/upgrade/programs.ts): resources in the stack config's account
 * and in an explicit `Account` (the simulator's `second` account, token from the secret config
 * `secondToken`), and a data source read in each. The config key `modifierValue` is the one field
 * the upgrade suite changes (an in-place PATCH of the second account's bid modifier). The states
 * under tests/upgrade/recorded/explicit-account/ were written by this text: change it only together
 * with a new recording.
 */
import * as pulumi from "@pulumi/pulumi";
import * as adp from "pulumi-adplatform";

export = async () => {
  const config = new pulumi.Config();
  const second = new adp.Account({
    baseUrl: new pulumi.Config("adplatform").require("baseUrl"),
    token: config.requireSecret("secondToken"),
  });
  const home = new adp.CampaignGroup("home-launch", { name: "Home launch", color: "#2255aa", items: ["5101"] });
  const away = new adp.CampaignGroup("second-launch", { name: "Second launch", color: "#aa2255", items: ["5101"], account: second });
  const strategy = new adp.BidStrategy("second-night", {
    name: "Second night bids",
    strategy: "exact",
    value: 0.4,
    maxValue: 1,
    account: second,
  });
  const modifier = new adp.BidModifier("second-dach", {
    bidModifierId: "501",
    value: config.get("modifierValue") ?? "1.40",
    targeting: { countries: { items: ["DE", "AT", "CH"], op: "in" } },
    account: second,
  });
  const zones = [adp.getZoneOutput({ id: "1001" }), adp.getZoneOutput({ id: "1001", account: second })];
  return {
    homeGroupId: home.id,
    secondGroupId: away.id,
    secondStrategyId: strategy.id,
    secondModifierId: modifier.id,
    zoneNames: zones.map((zone) => zone.name),
  };
};
