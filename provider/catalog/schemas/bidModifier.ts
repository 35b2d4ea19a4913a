/** Bid modifier (spec, Resources: "Only the updatable fields are given"): the PATCH body of op 1, which answers 204. */
import { z } from "zod";
import { DecimalString, EMPTY_PATCH_MESSAGE, RequestId, RequestName, hasAnyField } from "./common";

/** One targeting dimension; the values of `op` and of the items are not shown, so any strings are sent. */
export const TargetingDimensionBody = z.strictObject({ items: z.array(z.string()), op: z.string() });

/**
 * Decision (not shown in spec): `targeting` is keyed by any dimension name, since the spec names them
 * only by example ("e.g. `countries`"); the names are data and keep their wire spelling.
 */
export const DimensionName = z.string();

/**
 * spec, rule 1 and Endpoints 1: partial, at least one field. spec, rule 2: `containers` wins over
 * `tags` when both are sent (both valid here; the provider warns that `tags` is deprecated).
 */
export const BidModifierUpdate = z
  .strictObject({
    name: RequestName.optional(),
    value: DecimalString.optional(),
    max_value: DecimalString.optional(),
    targeting: z.record(DimensionName, TargetingDimensionBody).optional(),
    containers: z.array(RequestId).optional(),
    tags: z.array(RequestId).optional(),
  })
  .refine(hasAnyField, { message: EMPTY_PATCH_MESSAGE });
