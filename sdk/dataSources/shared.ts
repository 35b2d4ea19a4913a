/**
 * Result pieces several data sources share. Every field of a record except `id` is optional: the
 * spec shows samples, not guarantees, so the reader requires only `id` (the catalog's Decision on
 * `wireObject`). Fields the platform sends beyond the spec are kept on the object at run time,
 * untyped.
 */

/** One targeting dimension as `{op, items}` (push task and segment targeting, `user_data` values). */
export interface TargetingRule {
  /** How `items` apply: `include` / `exclude` on push tasks, `eq` / `neq` on segments (values seen in the spec). */
  op?: string;
  /** The values the rule matches. */
  items?: string[];
}
