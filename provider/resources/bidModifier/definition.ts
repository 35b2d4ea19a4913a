/** BidModifier: an existing object named by `bidModifierId`; field rules from op 1's `BidModifierUpdate`, plus decimal inputs. */
import type { z } from "zod";
import { BidModifierUpdate } from "../../catalog";
import { DecimalStringInput } from "../inputs/decimal";
import { APPROVAL_FIELD } from "../inputs/leftBehindApproval";
import { defineResource, optsDoc } from "../inputs/definition";
import { patchBody } from "../inputs/patchFields";
import { PathId } from "../inputs/pathId";
import { decimalEquivalent } from "../inputs/equivalence";

const wire = BidModifierUpdate.shape;

/** The fields op 1 can set, in SDK names (spec, Bid modifier: "Only the updatable fields are given"). */
export const BID_MODIFIER_FIELDS = ["name", "value", "maxValue", "targeting", "containers", "tags"] as const;
export type BidModifierField = (typeof BID_MODIFIER_FIELDS)[number];

// spec, Endpoints 1: partial bodies, "omitted fields stay unchanged"; no create, read or delete. A changed
// `bidModifierId` names another object; every other field is PATCHed in place.
export const BID_MODIFIER = defineResource({
  kind: "BidModifier",
  noun: "bid modifier",
  adoption: { by: "ids", ids: ["bidModifierId"], request: "updateBidModifier" },
  description:
    "The managed settings of an existing bid modifier, named by its id.\n\n" +
    "Creating the resource adopts the modifier and sends every declared field; updates send only the changed " +
    "fields; a different `bidModifierId` replaces the resource. The API cannot create, read or delete bid " +
    "modifiers and cannot unset a field: removing a field from the program leaves its value on the platform, " +
    "and destroying the resource leaves the object with its last values (both with a warning).",
  argsDescription: "The arguments of a `BidModifier`. At least one field besides `bidModifierId` must be set.",
  constructorDocs: {
    name: "the Pulumi resource name.",
    args: "the modifier's id and the fields to manage.",
    opts: optsDoc("`import` may only repeat `bidModifierId`, whose modifier is always taken over"),
  },
  fields: {
    bidModifierId: {
      schema: PathId,
      description: "Id of the existing bid modifier to manage. Changing it replaces the resource.",
      stateDescription: "Id of the managed bid modifier (also the resource's `id`).",
      diff: { replaces: true },
    },
    name: {
      schema: wire.name,
      description: "Name of the modifier.",
      stateDescription: "Name, when declared.",
      diff: {},
    },
    // spec, Bid modifier: "string, decimal"; the sample has two decimal places.
    value: {
      schema: DecimalStringInput.optional(),
      description:
        "The modifier's value, a decimal (the API's sample has two decimal places). A number or a decimal string " +
        'such as `"1.50"`; sent as a decimal string, and `1.5` equals `"1.50"`.',
      stateDescription: "Value as the decimal string sent to the API, when declared.",
      diff: { equivalent: decimalEquivalent },
    },
    maxValue: {
      schema: DecimalStringInput.optional(),
      description:
        "Upper bound, a decimal (the API's sample has four decimal places). A number or a decimal string such as " +
        '`"2.5000"`; sent as a decimal string.',
      stateDescription: "Upper bound as the decimal string sent to the API, when declared.",
      diff: { equivalent: decimalEquivalent },
    },
    targeting: {
      schema: wire.targeting,
      description:
        "Targeting by dimension: keys are wire dimension names such as `countries` or `device_types` (kept as " +
        'written), values are `{ items, op }`, e.g. `{ countries: { items: ["US"], op: "in" } }`.',
      stateDescription: "Targeting by dimension, when declared.",
      diff: {},
      // spec, Bid modifier: `targeting`; the operators allowed in `op` are not shown.
      object: {
        name: "BidModifierTargetingDimension",
        description: "One targeting dimension of a bid modifier.",
        stateDescription: "One targeting dimension as stored in the state.",
        fields: {
          items: {
            description: "The dimension's values, e.g. two-letter country codes for `countries`; may be empty.",
            stateDescription: "The dimension's values.",
          },
          op: { description: "How the items apply, e.g. `in`." },
        },
      },
    },
    // spec, rule 2: with both `containers` and `tags` sent, `containers` applies.
    containers: {
      schema: wire.containers,
      description: "Container ids. When both `containers` and `tags` are set, `containers` applies.",
      stateDescription: "Container ids, when declared.",
      diff: {},
    },
    // spec, Versioning: `tags` is deprecated.
    tags: {
      schema: wire.tags,
      description: "Tag ids.",
      stateDescription: "Tag ids, when declared.",
      diff: {},
      deprecated: "Deprecated by the API: use `containers`. Ignored by the API when `containers` is also set.",
    },
    approveLeavingId: APPROVAL_FIELD,
  },
  // spec, Endpoints 1: "at least one field must be sent".
  atLeastOneOf: BID_MODIFIER_FIELDS,
});

export const BidModifierInputs = BID_MODIFIER.inputs;
/** Checked (normalised: decimals as strings) BidModifier inputs. */
export type BidModifierInputs = z.output<typeof BidModifierInputs>;

/** BidModifier state: the inputs (op 1 answers 204 and the full record is not shown). */
export type BidModifierOutputs = BidModifierInputs;

/** The op 1 body that sets `fields` of checked inputs (omitted fields stay unchanged, spec Endpoints 1). */
export const bidModifierBody = (inputs: BidModifierInputs, fields: readonly BidModifierField[]) =>
  patchBody(BidModifierUpdate, inputs, fields);
