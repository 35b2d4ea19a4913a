/** One entry of the operation catalog, which the client, the data sources, the simulator and the contract tests read. */
import type { z } from "zod";

export type HttpMethod = "GET" | "POST" | "PATCH";

/** spec, Limits 2. */
export type RateClassName = "A" | "B" | "C" | "D" | "E";

/** Requests admitted per fixed window for one rate class. */
export interface RateClass {
  /** Per burst window (1 s on the platform). */
  readonly burst: number;
  /** Per steady window (60 s on the platform). */
  readonly steady: number;
}

/** How many calls one request counts as against its rate class (spec, Limits 7), from its `fields` (rule 9). */
export type CostRule = (request: { readonly fields: readonly string[] }) => number;

/** A read returns `one` record, which its path names, or a `list` (spec, Endpoints: the success column). */
export type ReadShape = "one" | "list";

/** One operation of the spec. */
export interface OperationSpec {
  /** Number in the spec's Endpoints table. */
  readonly number: number;
  /** Stable camelCase name, e.g. `updateBidModifier`. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path template with `{param}` segments, exactly as the spec writes it. */
  readonly path: string;
  /** Path parameter names in template order. */
  readonly pathParams: readonly string[];
  /** Wire (snake_case) schema of the request body; undefined for GET. */
  readonly request?: z.ZodType;
  /** Success body: the `{total, items}` envelope for reads, the create body for POST; undefined for a 204. */
  readonly response?: z.ZodType;
  /** For reads, one record (the element of `items`). */
  readonly record?: z.ZodType;
  readonly successStatus: 200 | 201 | 204;
  readonly rateClass: RateClassName;
  readonly cost: CostRule;
  /** Takes a `fields` query parameter (spec, rule 9). */
  readonly acceptsFields: boolean;
  /** Accepts other query parameters (spec, rule 9). */
  readonly acceptsQuery: boolean;
  /** Safe to repeat after an ambiguous failure (GET and PATCH are; POST is not). */
  readonly idempotent: boolean;
  /** Reads only. */
  readonly reads?: ReadShape;
}
