/**
 * Every description a user reads of a data source (the SDK's JSDoc, the schema, the generated SDKs
 * and the API reference are made from these) is there and written for users: the row's own texts
 * and every field of the record schema its result is, at any depth. Spec citations belong in code
 * comments, not in these texts.
 */
import type { z } from "zod";
import { DATA_SOURCES } from "../../../provider/dataSources/definitions";
import { zodDef, type ZodDef } from "../../../provider/wire/zodDef";
import { descriptionOf } from "../../../scripts/native/zodToSchema";

const CITATION = /\bspec\b|\brule \d|\boperation \d/i;

/** `path: description` of every declared field below `schema` (undefined where none). */
function fieldDescriptions(schema: z.ZodType, path: string, seen: Set<ZodDef>, out: Map<string, string | undefined>): void {
  const def = zodDef(schema);
  if (seen.has(def)) return;
  seen.add(def);
  if (def.type === "object") {
    for (const [field, inner] of Object.entries(def.shape!)) {
      const at = path ? `${path}.${field}` : field;
      out.set(at, descriptionOf(inner));
      fieldDescriptions(inner, at, seen, out);
    }
    return;
  }
  if (def.type === "lazy") return fieldDescriptions(def.getter!(), path, seen, out);
  for (const inner of [def.innerType, def.element, def.valueType].filter((s) => s !== undefined)) {
    fieldDescriptions(inner, path, seen, out);
  }
}

describe.each(Object.values(DATA_SOURCES).map((s) => [s.functionName, s] as const))("%s", (_name, source) => {
  it("describes itself and each of its arguments for users", () => {
    const texts = [
      source.description,
      ...Object.values(source.args).map((a) => a.description),
      source.fieldsDescription,
      source.queryDescription,
      source.list?.total,
      source.list?.items,
    ].filter((t) => t !== undefined);
    for (const text of texts) {
      expect(text.trim()).not.toBe("");
      expect(text).not.toMatch(CITATION);
    }
  });

  it("describes every field of its result for users", () => {
    const fields = new Map<string, string | undefined>();
    fieldDescriptions(source.record, "", new Set(), fields);
    const missing = [...fields].filter(([, d]) => d === undefined).map(([at]) => at);
    const cited = [...fields].filter(([, d]) => d !== undefined && CITATION.test(d)).map(([at, d]) => `${at}: ${d}`);
    expect({ missing, cited }).toEqual({ missing: [], cited: [] });
  });
});
