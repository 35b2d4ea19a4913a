/**
 * `resourceProvider(kind)` as the serialized shim calls it: an object with every method the shim
 * forwards, one per kind, a clear error for a kind this version does not know, and the connection
 * `configure` left read at call time (the plugin may configure after the first lookup).
 */
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import { closeApiClients } from "../../../../provider/client";
import { configure } from "../../../../provider/faces/dynamic/configure";
import { resourceProvider } from "../../../../provider/faces/dynamic/resourceProvider";
import { RESOURCE_KINDS, type ResourceKind } from "../../../../provider/resources/kinds";
import { SEED_ACCOUNTS, startSimulator } from "../../../../simulator";

const SHIM_METHODS = ["check", "diff", "create", "read", "update", "delete"] as const;

it.each(RESOURCE_KINDS)("gives %s every method the shim forwards, the same object on every call", (kind) => {
  const provider = resourceProvider(kind);
  for (const method of SHIM_METHODS) expect(typeof provider[method]).toBe("function");
  expect(resourceProvider(kind)).toBe(provider);
});

it("refuses a kind it does not know, naming the known ones", () => {
  const known = "BidModifier, CampaignGroup, BidStrategy, AbTestVariation";
  expect(() => resourceProvider("Campaign" as ResourceKind)).toThrow(
    expect.objectContaining({ code: "ADP_ERR_UNSUPPORTED", message: `pulumi-adplatform has no resource kind "Campaign"; known: ${known}` }),
  );
});

it("uses the connection configure left, even when configured after the lookup", async () => {
  const sim = await startSimulator();
  try {
    const provider = resourceProvider("CampaignGroup");
    const demo = SEED_ACCOUNTS[0];
    await configure({ config: new Config({ "adplatform:baseUrl": sim.url, "adplatform:token": demo.token }, "adplatform-test") });
    const created = await provider.create({ name: "Configured later", color: "#102030", items: ["5101"], __provider: "text" });
    expect(created.outs).toEqual({
      name: "Configured later",
      color: "#102030",
      items: ["5101"],
      companyId: demo.companyId,
      __adplatformCreatedAt: expect.any(String),
    });
    expect(sim.state().campaignGroups.map((g) => g.id)).toContain(created.id);
  } finally {
    await closeApiClients();
    await sim.close();
  }
});
