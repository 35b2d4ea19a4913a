/**
 * The native schema (provider/faces/native/schema.json) is what scripts/native/buildSchema.ts
 * derives from the resource definitions, the data-source table, the catalog and the SDK's JSDoc:
 * a change to any of them that was not followed by `npm run generate` fails here.
 */
import * as fs from "node:fs";
import { buildSchema } from "../../../scripts/native/buildSchema";
import { SCHEMA_FILE, packageVersion } from "../../../scripts/native/schemaFile";
import { DATA_SOURCES } from "../../../provider/dataSources/definitions";
import { RESOURCE_KINDS } from "../../../provider/resources/kinds";
import { BID_MODIFIER } from "../../../provider/resources/bidModifier/definition";

jest.setTimeout(60_000);

const derived = buildSchema(packageVersion()) as any;

it("is the derivation of the current definitions (run `npm run generate` after changing them)", () => {
  expect(JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8"))).toEqual(derived);
});

it("declares every kind as a resource and every data source as a function", () => {
  expect(Object.keys(derived.resources).sort()).toEqual(RESOURCE_KINDS.map((k) => `adplatform:index:${k}`).sort());
  expect(Object.keys(derived.functions).sort()).toEqual(
    Object.keys(DATA_SOURCES)
      .map((n) => `adplatform:index:${n}`)
      .sort(),
  );
});

it("describes every resource input and output, and every function argument, from the SDK's JSDoc", () => {
  for (const [token, resource] of Object.entries<any>(derived.resources)) {
    expect([token, resource.description.length > 0]).toEqual([token, true]);
    for (const [name, property] of Object.entries<any>({ ...resource.inputProperties, ...resource.properties })) {
      expect([token, name, typeof property.description]).toEqual([token, name, "string"]);
    }
  }
  for (const [token, fn] of Object.entries<any>(derived.functions)) {
    for (const [name, property] of Object.entries<any>(fn.inputs.properties)) {
      expect([token, name, typeof property.description]).toEqual([token, name, "string"]);
    }
  }
});

it("takes its types and requirements from the zod schemas", () => {
  const strategy = derived.resources["adplatform:index:BidStrategy"];
  expect(strategy.requiredInputs).toEqual(["name", "strategy", "value", "maxValue"]);
  expect(strategy.inputProperties.value).toMatchObject({ oneOf: [{ type: "number" }, { type: "string" }], willReplaceOnChanges: true });
  expect(strategy.properties.value).toMatchObject({ type: "number" });
  const modifier = derived.resources["adplatform:index:BidModifier"];
  expect(modifier.properties.value).toMatchObject({ type: "string" });
  expect(modifier.inputProperties.targeting.additionalProperties).toEqual({ $ref: "#/types/adplatform:index:BidModifierTargeting" });
  // A group's declaration may omit items (an imported group), and its view adds size.
  const group = derived.resources["adplatform:index:CampaignGroup"];
  expect(group.requiredInputs).toEqual(["name", "color"]);
  expect(group.properties.size).toMatchObject({ type: "integer" });
  expect(derived.config.variables.token.secret).toBe(true);
  const zone = derived.functions["adplatform:index:getZone"];
  expect(zone.outputs.required).toEqual(["id"]);
  expect(zone.outputs.properties.targeting).toMatchObject({ $ref: "#/types/adplatform:index:ZoneTargeting" });
});

it("marks a field its definition deprecates, as an input and in the state, with the definition's reason", () => {
  const modifier = derived.resources["adplatform:index:BidModifier"];
  const reason = BID_MODIFIER.fields.tags.deprecated;
  expect(modifier.inputProperties.tags.deprecationMessage).toBe(reason);
  expect(modifier.properties.tags.deprecationMessage).toBe(reason);
  expect(modifier.inputProperties.containers.deprecationMessage).toBeUndefined();
});
