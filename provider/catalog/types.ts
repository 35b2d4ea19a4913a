/**
 * The shape of one entry in the operation catalog.
 *
 * The catalog (`operations.ts`) is data: one entry per operation of the spec. The HTTP client, the
 * data sources, the simulator's router and the contract tests all read it, so adding an operation is
 * one entry (and, for the simulator, one row of its store bindings).
 */
import type { z } from "zod";

/** HTTP methods the spec uses. */
export type HttpMethod = "GET" | "POST" | "PATCH";

/** Rate class names of the spec (spec, Limits 2). */
export type RateClassName = "A" | "B" | "C" | "D" | "E";

/** Requests admitted per fixed window for one rate class. */
export interface RateClass {
  /** Requests per burst window (1 s on the platform). */
  readonly burst: number;
  /** Requests per steady window (60 s on the platform). */
  readonly steady: number;
}

/** What a cost rule sees of a request. */
export interface CostInput {
  /** Subresources asked for through the `fields` query parameter (spec, rule 9). */
  readonly fields: readonly string[];
}

/** How many calls one request counts as against its rate class (spec, Limits 7). */
export type CostRule = (request: CostInput) => number;

/**
 * What a read returns: `one` record, which its path names (the envelope holds exactly it), or a
 * `list` of every record the path selects (spec, Endpoints: "list of ..." in the success column).
 */
export type ReadShape = "one" | "list";

/** One operation of the spec. */
export interface OperationSpec {
  /** Operation number in the spec's Endpoints table. */
  readonly number: number;
  /** Stable camelCase name, e.g. `updateBidModifier`, `getZone`. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path template with `{param}` segments, exactly as the spec writes it. */
  readonly path: string;
  /** Path parameter names in template order (derived from `path`). */
  readonly pathParams: readonly string[];
  /** Wire (snake_case) schema of the request body; undefined for GET. */
  readonly request?: z.ZodType;
  /**
   * Wire schema of the success body: the `{total, items}` envelope for reads, the create body for
   * POST; undefined when the success has no body (204).
   */
  readonly response?: z.ZodType;
  /** Wire schema of one record, for reads (the element of `items`). */
  readonly record?: z.ZodType;
  /** Status of a successful response. */
  readonly successStatus: 200 | 201 | 204;
  readonly rateClass: RateClassName;
  readonly cost: CostRule;
  /** True when the operation takes a `fields` query parameter (spec, rule 9). */
  readonly acceptsFields: boolean;
  /** True when the operation accepts other query parameters (spec, rule 9). */
  readonly acceptsQuery: boolean;
  /** Safe to repeat after an ambiguous failure (GET and PATCH are; POST is not). */
  readonly idempotent: boolean;
  /** For reads: one record or a list (the data sources' result shape); undefined for writes. */
  readonly reads?: ReadShape;
}
