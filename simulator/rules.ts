/**
 * The spec's rules that a `StoreBinding` (`bindings.ts`) cannot express, as data keyed by collection. The engine
 * (`engine.ts`) reads this table next to the catalog; there is no per-operation handler.
 */
import type { WireRecord } from "./state";

/** A parent that the path names and that must satisfy a condition. */
export interface ParentRule {
  /** Field of the record whose path parameter names the parent, e.g. `zone_id`. */
  readonly via: string;
  /** Collection of the parent; the parent's `id` equals the path parameter. */
  readonly collection: string;
  /** Field and value the parent must have. */
  readonly field: string;
  readonly equals: string;
  /** 400 message when the parent exists but does not satisfy the condition. */
  readonly message: (parentId: string, actual: unknown) => string;
}

/** Rules of one collection. */
export interface CollectionRules {
  /** Fields the read view leaves out of a stored record. */
  readonly hiddenOnRead?: readonly string[];
  /** Fields the server computes when it creates a record from a request body. */
  readonly derivedOnCreate?: (record: WireRecord) => WireRecord;
  /** PATCH: `[winner, loser]` pairs; when both are sent, the loser is not applied. */
  readonly precedence?: readonly (readonly [string, string])[];
  /** A parent the path names that must satisfy a condition. */
  readonly parent?: ParentRule;
  /** List reads send `total` as a string. */
  readonly totalAsString?: boolean;
}

/** Every collection's rules; collections not listed have none. */
export const COLLECTION_RULES: Readonly<Record<string, CollectionRules>> = {
  campaignGroups: {
    // spec, Campaign group: `items` is "sent on create and returned by create; not returned by view".
    hiddenOnRead: ["items"],
    // spec, Campaign group: `size` is "number of campaigns" (rule 4: `items` lists them). Decision
    // (not shown in spec): an id listed twice is one campaign.
    derivedOnCreate: (record) => ({ size: Array.isArray(record.items) ? new Set(record.items).size : 0 }),
  },
  bidModifiers: {
    // spec, rule 2: when both `containers` and `tags` are sent, `containers` applies. Decision (not
    // shown in spec): the sent `tags` is then dropped and the stored `tags` stays as it was, so
    // `GET /_sim/state` shows which of the two was applied.
    precedence: [["containers", "tags"]],
  },
  zonePlacements: {
    // spec, rule 5: operation 10 applies to display zones only. Decision (not shown in spec): asking
    // for a placement of an existing zone of another type is a 400 (the request is not valid for that
    // zone), not a 404; a zone that does not exist is a 404.
    parent: {
      via: "zone_id",
      collection: "zones",
      field: "type",
      equals: "display",
      message: (zoneId, actual) => `placements exist only on display zones; zone ${zoneId} is of type ${String(actual)}`,
    },
  },
  segments: {
    // spec, Conventions: "one list response shows [total] as a string". Decision (not shown in spec):
    // that list is the segments list (operation 18).
    totalAsString: true,
  },
};

/** The rules of `collection` (an empty object when it has none). */
export function rulesOf(collection: string): CollectionRules {
  return COLLECTION_RULES[collection] ?? {};
}
