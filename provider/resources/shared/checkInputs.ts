/**
 * The one `check` engine of the four resources: validates the new inputs with the resource's SDK
 * zod schema (built from the catalog's strict request schemas, so constraints live in one place)
 * and returns them normalised (decimal strings, numbers, defaults).
 *
 * Values unknown during a preview pass unvalidated: issues they cause are dropped, and the fields
 * that hold them are returned as they came, while every known field is still normalised.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { toCheckFailures } from "./checkFailures";
import { containsUnknown } from "./unknowns";

/** The serialized-provider key the plugin adds to every input set; not an input of ours. */
export const PROVIDER_KEY = "__provider";

/** An SDK-side input schema: a strict object (its shape lists every input). */
export type InputSchema = z.ZodObject<z.core.$ZodLooseShape, z.core.$strict>;

/** Result of `checkInputs`: `pulumi.dynamic.CheckResult` with required fields. */
export interface CheckedInputs<T> {
  readonly inputs: T;
  readonly failures: pulumi.dynamic.CheckFailure[];
}

/** The inputs without the plugin's `__provider` key. */
export function withoutProviderKey(props: Record<string, unknown>): Record<string, unknown> {
  const { [PROVIDER_KEY]: _provider, ...rest } = props;
  return rest;
}

/** Validates and normalises `news` (see the module comment). */
export function checkInputs<S extends InputSchema>(schema: S, news: Record<string, unknown>): CheckedInputs<z.output<S>> {
  const inputs = withoutProviderKey(news ?? {});
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
