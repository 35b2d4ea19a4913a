/**
 * Bid modifier (spec, Resources: "Only the updatable fields are given"): the PATCH body of op 1.
 * The full record is not shown, so there is no response schema (op 1 answers 204).
 */
import { z } from "zod";
import { DecimalString, EMPTY_PATCH_MESSAGE, RequestId, RequestName, hasAnyField } from "./common";

/**
 * One targeting dimension of a request: `items` (array of strings) and `op` (string, e.g. `in`),
 * both given by the spec. The values of `op` are not shown (`in`/`nin` on zones, `include`/`exclude`
 * on push tasks), nor those of the items, so any strings are sent; an empty `items` array too.
 */
export const TargetingDimensionBody = z.strictObject({
  items: z.array(z.string()),
  op: z.string(),
});
/** Type of `TargetingDimensionBody`. */
export type TargetingDimensionBody = z.output<typeof TargetingDimensionBody>;

/**
 * Decision (not shown in spec): bid modifier `targeting` is a map keyed by dimension name, since the
 * spec names the dimensions only by example ("e.g. `countries`"), so any name is sent. Dimension
 * names are data and keep their wire spelling in the SDK (a record: the casing leaves its keys
 * verbatim).
 */
export const DimensionName = z.string();

/**
 * PATCH body of op 1. spec, rule 1 and Endpoints 1: partial; at least one field must be sent;
 * omitted fields stay unchanged. spec, rule 2: `containers` wins over `tags` when both are sent
 * (both are still valid here; the provider warns that `tags` is deprecated).
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
/** Wire type of the op 1 body. */
export type BidModifierUpdate = z.output<typeof BidModifierUpdate>;
