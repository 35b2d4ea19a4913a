import { z } from "zod";
import { OPERATIONS, operationByName, type OperationName } from "../../../../provider/catalog";
import { toSdk } from "../../../../provider/wire/casing";
import * as samples from "../../../helpers/wireSamples";

// Which sample is the record of which read.
const SAMPLE_OF: Partial<Record<OperationName, Record<string, unknown>>> = {
  getContainerModal: samples.containerModal,
  listContainerPrompts: samples.containerPrompt,
  getIntegration: samples.integration,
  getCreative: samples.creative,
  getPushTask: samples.pushTask,
  getZonePlacement: samples.zonePlacement,
  getProfileProperty: samples.profileProperty,
  getSearchAlgorithm: samples.searchAlgorithm,
  getZone: samples.zone,
  listMacros: samples.macro,
  listExternalDemands: samples.externalDemand,
  getMessagingProvider: samples.messagingProvider,
  listCountries: samples.country,
  listSegments: samples.segment,
  getCampaignGroup: samples.campaignGroup,
  getContainerGroup: samples.containerGroup,
};

const reads = OPERATIONS.filter((op) => op.method === "GET");

describe("record schemas (tolerant reader)", () => {
  it("has a sample for every read", () => {
    expect(Object.keys(SAMPLE_OF).sort()).toEqual(reads.map((op) => op.name).sort());
  });

  it.each(reads.map((op) => [op.name, op] as const))("%s parses its sample inside an envelope with total as a string", (name, op) => {
    const sample = SAMPLE_OF[name]!;
    const parsed = op.response!.parse({ total: "1", items: [sample] }) as { total: number; items: Record<string, unknown>[] };
    expect(parsed.total).toBe(1);
    expect(parsed.items).toHaveLength(1);
    expect(parsed.items[0].id).toBe(String(sample.id));
  });

  it("normalises numeric ids to strings, everywhere an id is", () => {
    const zone = operationByName("getZone").record.parse(samples.zone);
    expect(zone.account_id).toBe("5");
    expect(zone.creator?.id).toBe("8");
    expect(zone.widgets).toEqual(["w-1", "2"]);
    const modal = operationByName("getContainerModal").record.parse(samples.containerModal);
    expect(modal.id).toBe("42");
    expect(modal.messages?.[0].id).toBe("9001");
    expect(modal.filters?.[0].variable).toBe("12");
    const group = operationByName("getCampaignGroup").record.parse(samples.campaignGroup);
    expect([group.id, group.company_id]).toEqual(["12", "17"]);
  });

  it("keeps integers where the spec says integer (creative campaign_id)", () => {
    const rec = operationByName("getCreative").record;
    expect(rec.parse(samples.creative).campaign_id).toBe(1234);
    expect(rec.safeParse({ ...samples.creative, campaign_id: "1234" }).success).toBe(false);
  });

  it("accepts nulls where the spec allows them and refuses them elsewhere", () => {
    const rec = operationByName("getPushTask").record;
    const task = rec.parse(samples.pushTask);
    expect(task.end_time).toBeNull();
    expect(task.last_execution_time).toBeNull();
    expect(task.frequency).toBeNull();
    expect(task.adex?.account_id).toBeNull();
    expect(task.adex?.campaign_id).toEqual(["100", "101"]);
    // Types beyond null are not given: other JSON is kept verbatim.
    expect(rec.parse({ ...samples.pushTask, quiet_time: { from: "22:00", to: "07:00" } }).quiet_time).toEqual({
      from: "22:00",
      to: "07:00",
    });
    expect(rec.safeParse({ ...samples.pushTask, start_time: null }).success).toBe(false);
    const demand = operationByName("listExternalDemands").record.parse(samples.externalDemand);
    expect(demand.settings?.[0].possible_values).toBeNull();
    expect(demand.settings?.[1].required).toBe("0");
  });

  it("keeps unknown extra fields", () => {
    const modal = operationByName("getContainerModal").record.parse(samples.containerModal);
    expect(modal.future_field).toEqual({ added_later: true });
    const country = operationByName("listCountries").record.parse({ ...samples.country, flag: "🇩🇪" });
    expect(country.flag).toBe("🇩🇪");
  });

  it("requires only the id of a record", () => {
    const rec = operationByName("getZone").record;
    expect(rec.parse({ id: "1" })).toEqual({ id: "1" });
    expect(rec.safeParse({ name: "no id" }).success).toBe(false);
    // A zone that is not of type widget has no widgets (spec, rule 6).
    const { widgets: _w, ...push } = samples.zone;
    expect(rec.parse({ ...push, type: "push", user_cache: 1 }).user_cache).toBe(1);
  });

  it("still checks the types the spec gives", () => {
    expect(operationByName("getZone").record.safeParse({ ...samples.zone, distribution: "100" }).success).toBe(false);
    expect(operationByName("getZone").record.safeParse({ ...samples.zone, distribution: 1.5 }).success).toBe(false);
    expect(operationByName("getIntegration").record.safeParse({ ...samples.integration, events: {} }).success).toBe(false);
  });

  it("reads recursive filter nodes to any depth", () => {
    const modal = operationByName("getContainerModal").record.parse(samples.containerModal);
    expect(modal.filters?.[0].filters?.[0].filters?.[0]).toEqual({ variable: "14", value: "1" });
    const bad = { ...samples.containerModal, filters: [{ variable: "1", value: "x", filters: [{ value: 3 }] }] };
    expect(operationByName("getContainerModal").record.safeParse(bad).success).toBe(false);
  });
});

describe("toSdk over record schemas", () => {
  const sdk = <S extends z.ZodType>(schema: S, wire: unknown) => toSdk<Record<string, any>>(schema, schema.parse(wire));

  it("camelCases declared fields at every depth", () => {
    const modal = sdk(operationByName("getContainerModal").record, samples.containerModal);
    expect(modal.abTestConfig.winnerDeliveryMode).toBe("automatic");
    expect(modal.triggers.elementVisibility.minOnScreenTime).toBe(3);
    expect(modal.triggers.scrollDepth.vertical.percentage).toBe(50);
    expect(modal.messages[0].settings.backgroundColor).toBe("#ffffff");
    expect(modal.frequency.stopAfterInteraction).toBe(true);
    expect(modal.futureField).toEqual({ added_later: true });
    const creative = sdk(operationByName("getCreative").record, samples.creative);
    expect(creative.description2).toEqual({ key: "en", value: "Today only" });
    expect(creative.imageSize.value).toBe("300x250");
    const zone = sdk(operationByName("getZone").record, samples.zone);
    expect(zone.targeting.deviceTypes).toEqual({ items: ["mobile"], op: "in" });
    expect(zone.targeting.os.items[0]).toEqual({ id: "ios", op: "in", versions: ["17", "18"] });
    expect(zone.stats.spamClick).toBe(1);
    expect(Object.keys(zone)).not.toContain("company_id");
  });

  it("keeps data keys verbatim: qps, user_data, metadata, properties, macro record fields", () => {
    expect(sdk(operationByName("listExternalDemands").record, samples.externalDemand).qps).toEqual({
      us_east: 500,
      "eu-west-1": 250,
      APAC: 100,
    });
    const task = sdk(operationByName("getPushTask").record, samples.pushTask);
    expect(Object.keys(task.targeting.userData)).toEqual(["last_order_id", "Loyalty Tier"]);
    expect(task.targeting.remoteUsers).toEqual({ op: "include", items: [] });
    expect(task.adex.defaultCampaignId).toBeNull();
    const segment = sdk(operationByName("listSegments").record, samples.segment);
    expect(segment.targeting.userData).toEqual({ plan_type: { op: "eq", items: ["pro"] } });
    expect(segment.targeting.subscribedAge).toEqual({ from: 0, to: 30 });
    expect(sdk(operationByName("getSearchAlgorithm").record, samples.searchAlgorithm).metadata).toEqual({
      explore_rate: "0.1",
      "Model-Version": "v2",
    });
    const integration = sdk(operationByName("getIntegration").record, samples.integration);
    expect(Object.keys(integration.actions[0].properties)).toEqual(["Subject Line", "reply_to"]);
    // The values of a record are still shapes with declared fields.
    expect(integration.actions[0].integrationId).toBe("int-1");
    const macro = sdk(operationByName("listMacros").record, samples.macro);
    expect(macro.records[0].fields).toEqual({ city: "Berlin", "Postal Code": "10115" });
  });
});
