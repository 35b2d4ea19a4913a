/** The one `check` engine: zod-validates and normalises inputs; fields holding preview unknowns pass as they came. */
import { z } from "zod";
import type { CheckResult } from "../lifecycle/contract";
import { toCheckFailures } from "./checkFailures";
import { containsUnknown } from "./unknowns";

/** A strict object: its shape lists every input. */
export type InputSchema = z.ZodObject<z.core.$ZodLooseShape, z.core.$strict>;

export function checkInputs<S extends InputSchema>(schema: S, news: Record<string, unknown>): CheckResult<z.output<S>> {
  const inputs = news ?? {};
  const parsed = schema.safeParse(inputs);
  if (parsed.success) return { inputs: parsed.data, failures: [] };
  const failures = toCheckFailures(parsed.error.issues, inputs, Object.keys(schema.shape));
  return { inputs: normaliseKnownFields(schema, inputs) as z.output<S>, failures };
}

/** Field by field: each known, valid field in its normalised form; the rest as they came. */
function normaliseKnownFields(schema: InputSchema, inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...inputs };
  for (const [field, fieldSchema] of Object.entries(schema.shape)) {
    const value = inputs[field];
    if (containsUnknown(value)) continue;
    const parsed = (fieldSchema as z.ZodType).safeParse(value);
    if (parsed.success && parsed.data !== undefined) out[field] = parsed.data;
  }
  return out;
}
