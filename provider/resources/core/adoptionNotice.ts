/**
 * Says, before it happens, that a create will take an existing object over instead of making one:
 * the engine shows every create as `+ create`, adoption included, so without this a preview of
 * `adoptId: "701"` and one of a new group look the same.
 *
 * `check` is where it is said: the engine calls it once per resource in every run, the preview's
 * and the update's alike, and its old inputs tell whether a create lies ahead (none: the state holds
 * no resource; for the kinds whose declared ids always adopt, other ids: a replacement adopts
 * another object). `diff` is not called for a resource to be created, and `create` runs too late
 * for a preview. The notice is an info message on the resource; a check that fails says nothing.
 */
import type { ResourceKind } from "../kinds";
import { isUnknown } from "../common/unknowns";
import type { ResourceLifecycle } from "./lifecycle";

type Inputs = Record<string, unknown>;

/** How one kind's inputs name the object its create adopts. */
interface AdoptionRule {
  /** The adopted object's id in `inputs`, or undefined when the create makes a new object. */
  id(inputs: Inputs): string | undefined;
  /** Whether every create adopts (the declared ids name the object), so a replacement adopts too. */
  always: boolean;
  /** The resource and what adopting does, for the message. */
  describe(inputs: Inputs, id: string): string;
}

/** A plain, known string id; empty, absent or unknown-in-preview values name nothing yet. */
const known = (value: unknown): string | undefined => (typeof value === "string" && value !== "" && !isUnknown(value) ? value : undefined);

const RULES: Readonly<Record<ResourceKind, AdoptionRule>> = {
  CampaignGroup: {
    id: (inputs) => known(inputs.adoptId),
    always: false,
    describe: (inputs, id) =>
      `CampaignGroup ${JSON.stringify(inputs.name)}: adopts the existing campaign group ${id} instead of creating one ` +
      `(GET op 19 checks that its name and colour match)`,
  },
  BidStrategy: {
    id: (inputs) => known(inputs.adoptId),
    always: false,
    describe: (inputs, id) =>
      `BidStrategy ${JSON.stringify(inputs.name)}: adopts the existing bid strategy ${id} instead of creating one ` +
      `(the API cannot read strategies: the declared values become its state)`,
  },
  BidModifier: {
    id: (inputs) => known(inputs.bidModifierId),
    always: true,
    describe: (_inputs, id) =>
      `BidModifier ${JSON.stringify(id)}: adopts the existing bid modifier ${id}; nothing is created (PATCH op 1 sets the declared fields)`,
  },
  AbTestVariation: {
    id: (inputs) => {
      const test = known(inputs.abTestId);
      const variation = known(inputs.variationId);
      return test === undefined || variation === undefined ? undefined : `${test}/${variation}`;
    },
    always: true,
    describe: (inputs, id) =>
      `AbTestVariation ${JSON.stringify(inputs.variationId)} of A/B test ${JSON.stringify(inputs.abTestId)}: adopts the ` +
      `existing variation ${id}; nothing is created (PATCH op 4 sets the declared fields)`,
  },
};

/** The notice for checked `news` of `kind` given the old inputs `olds`, or undefined when no create adopts. */
export function adoptionNotice(kind: ResourceKind, olds: Inputs, news: Inputs): string | undefined {
  const rule = RULES[kind];
  const id = rule.id(news);
  if (id === undefined) return undefined;
  const created = Object.keys(olds).length === 0;
  const adoptsAnother = rule.always && !created && rule.id(olds) !== id;
  return created || adoptsAnother ? rule.describe(news, id) : undefined;
}

/** `lifecycle` with `check` telling the user (`ctx.info`) when the create ahead adopts an existing object. */
export function announcingAdoption<I, O>(kind: ResourceKind, lifecycle: ResourceLifecycle<I, O>): ResourceLifecycle<I, O> {
  return {
    ...lifecycle,
    async check(olds, news, ctx) {
      const result = await lifecycle.check(olds, news, ctx);
      if (result.failures.length === 0) {
        const notice = adoptionNotice(kind, olds, result.inputs as Inputs);
        if (notice !== undefined) await ctx.info(notice);
      }
      return result;
    },
  };
}
