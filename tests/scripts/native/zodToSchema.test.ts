/**
 * The native schema's types from zod schemas whose fields carry descriptions: `.describe()` returns a
 * copy of a schema, so a described field must still be the object type (or the transform) it copies,
 * and its description must reach the property.
 */
import { z } from "zod";
import { WireId, wireObject } from "../../../provider/catalog";
import { SchemaTypes, descriptionOf, type WalkOptions } from "../../../scripts/native/zodToSchema";

const walk: WalkOptions = { side: "output", wireNames: true, typePrefix: "Probe", describe: (_at, schema) => descriptionOf(schema) };

it("names an object schema once however many described copies of it fields hold", () => {
  const Range = wireObject({ from: z.number(), to: z.number() });
  const Probe = wireObject({ first: Range.describe("The first range."), second: Range.describe("The second range."), third: Range });
  const types = new SchemaTypes("probe", new Map());
  const { properties } = types.objectProperties(Probe.shape, walk, "");
  expect(Object.keys(types.types)).toEqual(["probe:index:ProbeFirst"]);
  expect(properties).toEqual({
    first: { $ref: "#/types/probe:index:ProbeFirst", description: "The first range." },
    second: { $ref: "#/types/probe:index:ProbeFirst", description: "The second range." },
    third: { $ref: "#/types/probe:index:ProbeFirst" },
  });
});

it("keeps what a described copy of a transform keeps", () => {
  const types = new SchemaTypes("probe", new Map([[WireId, { type: "string" as const }]]));
  const { properties } = types.objectProperties(wireObject({ owner_id: WireId.describe("Owner id.") }).shape, walk, "");
  expect(properties).toEqual({ ownerId: { type: "string", description: "Owner id." } });
});

it("reads a description through the wrappers that carry none", () => {
  const described = z.string().describe("A name.");
  expect(descriptionOf(described.optional().nullable())).toBe("A name.");
  expect(descriptionOf(z.string())).toBeUndefined();
});
