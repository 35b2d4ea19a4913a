/** The native face's tokens: `adplatform:index:<Kind>` and `adplatform:index:getX`, and URN types. */
import { dataSourceOfToken, functionToken, kindOfToken, resourceToken, typeOfUrn } from "../../../../provider/faces/native/tokens";
import { RESOURCE_KINDS } from "../../../../provider/resources/kinds";

it("names every kind and reads it back from a token", () => {
  for (const kind of RESOURCE_KINDS) expect(kindOfToken(resourceToken(kind))).toBe(kind);
  expect(resourceToken("CampaignGroup")).toBe("adplatform:index:CampaignGroup");
  expect(kindOfToken("adplatform:index:Nothing")).toBeUndefined();
  expect(kindOfToken("pulumi-nodejs:dynamic/adplatform:CampaignGroup")).toBeUndefined();
});

it("names every data source and reads it back", () => {
  expect(functionToken("getZone")).toBe("adplatform:index:getZone");
  expect(dataSourceOfToken("adplatform:index:getZone")).toBe("getZone");
  expect(dataSourceOfToken("adplatform:index:toString")).toBeUndefined();
});

it("takes a resource's own type from its URN, also under a parent", () => {
  expect(typeOfUrn("urn:pulumi:dev::proj::adplatform:index:BidStrategy::night")).toBe("adplatform:index:BidStrategy");
  expect(typeOfUrn("urn:pulumi:dev::proj::my:Component$adplatform:index:BidStrategy::night")).toBe("adplatform:index:BidStrategy");
});
