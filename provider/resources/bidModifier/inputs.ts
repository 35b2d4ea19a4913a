/**
 * BidModifier inputs (SDK side) and their PATCH body. A bid modifier is an existing platform object
 * named by `bidModifierId`; the field rules are the catalog's op 1 request schema
 * (`BidModifierUpdate`), with the number/decimal-string input forms added here.
 */
import { z } from "zod";
import { BidModifierUpdate, EMPTY_PATCH_MESSAGE, hasAnyField } from "../../catalog";
import { toWire } from "../../wire/casing";
import { DecimalStringInput } from "../common/decimal";
import type { DiffRules } from "../common/diff";
import { PathId } from "../common/pathId";
import { decimalEquivalent } from "../common/equivalence";

const wire = BidModifierUpdate.shape;

/** The fields op 1 can set, in SDK names (spec, Bid modifier: "Only the updatable fields are given"). */
export const BID_MODIFIER_FIELDS = ["name", "value", "maxValue", "targeting", "containers", "tags"] as const;
/** One settable field of a bid modifier. */
export type BidModifierField = (typeof BID_MODIFIER_FIELDS)[number];

/** Checked inputs of a BidModifier. */
export const BidModifierInputs = z
  .strictObject({
    bidModifierId: PathId,
    name: wire.name,
    value: DecimalStringInput.optional(),
    maxValue: DecimalStringInput.optional(),
    targeting: wire.targeting,
    containers: wire.containers,
    tags: wire.tags,
  })
  // spec, Endpoints 1: "at least one field must be sent".
  .refine(({ bidModifierId: _id, ...fields }) => hasAnyField(fields), {
    message: `${EMPTY_PATCH_MESSAGE}: set at least one of ${BID_MODIFIER_FIELDS.join(", ")}`,
  });
/** Checked (normalised: decimals as strings) BidModifier inputs. */
export type BidModifierInputs = z.output<typeof BidModifierInputs>;

/** BidModifier state: the inputs (op 1 answers 204 and the full record is not shown). */
export type BidModifierOutputs = BidModifierInputs;

/** A changed `bidModifierId` names another object: replace. Every other field is PATCHed in place. */
export const BID_MODIFIER_DIFF: DiffRules = {
  bidModifierId: { replaces: true },
  name: {},
  value: { equivalent: decimalEquivalent },
  maxValue: { equivalent: decimalEquivalent },
  targeting: {},
  containers: {},
  tags: {},
};

/**
 * The op 1 body that sets `fields` of checked inputs; absent fields are not sent (omitted fields stay
 * unchanged, spec Endpoints 1).
 */
export function bidModifierBody(inputs: BidModifierInputs, fields: readonly BidModifierField[]): z.input<typeof BidModifierUpdate> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) picked[field] = inputs[field];
  return toWire(BidModifierUpdate, picked);
}
