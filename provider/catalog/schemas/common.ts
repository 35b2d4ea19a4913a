/**
 * Shared pieces of the wire schemas: identifiers, timestamps, flags, the read envelope, and the two
 * builders every response shape goes through.
 *
 * Wire schemas are snake_case, exactly as the platform sends them. Responses follow "tolerant
 * reader" and requests "strict writer" (docs/ARCHITECTURE.md, "The operation catalog"); the policy
 * for responses is stated once, below, and applied by `wireObject` / `wireRecord` so no schema has
 * to repeat it.
 */
import { z } from "zod";

/**
 * Decision (not shown in spec): which fields of a response record are required.
 * The spec shows samples, not guarantees, so a top-level response record requires only its `id`
 * (the one field every record has and the client needs to address it; a record without one fails
 * the read with "items.N.id: is missing"); every other declared field is optional. Nested objects
 * have all-optional fields, their `id` included: a nested record without an id (a modal's message,
 * an integration's event or action, a macro's record) is nothing the client addresses, so it is
 * read as sent rather than failing the read. Unknown extra fields are kept (`z.looseObject`) so a
 * newer platform never breaks a read. Fields are nullable only where the spec says so (push task,
 * external demand settings); types are checked where the spec gives them.
 */
export function wireObject<const S extends z.core.$ZodLooseShape>(shape: S) {
  return z.looseObject(shape).partial();
}

/** A top-level response record: `wireObject` with a required `id` (see the Decision on `wireObject`). */
export function wireRecord<const S extends z.core.$ZodLooseShape>(shape: S) {
  return z.looseObject(shape).partial().extend({ id: WireId });
}

/** Issue message of a required response field that is absent (a record's `id`). */
export const MISSING_FIELD = "is missing";

/**
 * An identifier on the wire. spec, Conventions: "Identifiers are strings, including numeric-looking
 * ones"; the tolerant reader also accepts a JSON integer and normalises it to its decimal string.
 * Decision (not shown in spec): an integer id beyond 2^53 keeps every digit: `parseJson`
 * (provider/wire/json.ts) hands it over as a `bigint`, read here as its exact decimal string.
 */
export const WireId = z
  .union([z.string(), z.number().int(), z.bigint()], {
    error: (issue) => (issue.input === undefined ? MISSING_FIELD : "must be a string or an integer"),
  })
  .transform((v) => String(v));
/** Output type of `WireId`. */
export type WireId = z.output<typeof WireId>;

/**
 * A flag sent as a string (`"0"`/`"1"`: external demand `required`, `sync_status`,
 * `ipv6_support`). An integer is accepted too and normalised to its string, as for ids.
 */
export const StringFlag = WireId;

/** spec, Conventions: "Flags are often integers `0` or `1`". Other integers are not refused. */
export const IntFlag = z.number().int();

/** An integer field of a response. */
export const Int = z.number().int();

/**
 * spec, Conventions: timestamps are strings `YYYY-MM-DD HH:MM:SS`. The reader keeps them as strings
 * and does not check the format: a different format must not make a record unreadable.
 */
export const Timestamp = z.string();

/**
 * spec, Conventions: `total` is an integer, but "one list response shows it as a string"; both
 * parse to a number. A string must be a plain non-negative integer.
 */
export const Total = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, "total must be a non-negative integer")])
  .transform((v) => Number(v));

/**
 * The envelope of every read (spec, Conventions): `{ total, items }`. A single-record read returns
 * `items` with one element; deciding what zero elements mean is the caller's business.
 */
export function envelope<R extends z.ZodType>(record: R) {
  return z.looseObject({ total: Total, items: z.array(record) });
}
/** Output type of an envelope of records `R`. */
export interface Envelope<R> {
  total: number;
  items: R[];
  [extra: string]: unknown;
}

/** `{op, items}`: one targeting dimension whose items are plain strings (push task, segment). */
export const OpItems = wireObject({ op: z.string(), items: z.array(z.string()) });
/** Output type of `OpItems`. */
export type OpItems = z.output<typeof OpItems>;

/** Embedded `account` / `creator` object of a zone: {id, name, status, image}. */
export const EmbeddedAccount = wireObject({
  id: WireId,
  name: z.string(),
  status: z.string(),
  image: z.string(),
});

// ---------------------------------------------------------------------------------------------
// Strict writer pieces (request bodies of ops 1-4).
// ---------------------------------------------------------------------------------------------

/**
 * Decision (not shown in spec): a `name` in a request body is 1 to 255 characters and not only
 * whitespace (spec, rule 10 leaves the constraints open; 255 is the common column size).
 */
export const NAME_MAX_LENGTH = 255;
/** Request-body `name` (see the Decision on `NAME_MAX_LENGTH`). */
export const RequestName = z
  .string()
  .min(1, "name must not be empty")
  .max(NAME_MAX_LENGTH, `name must be at most ${NAME_MAX_LENGTH} characters`)
  .regex(/\S/, "name must not be only whitespace");

/**
 * An id sent in a request body. Decision (not shown in spec): non-empty, no surrounding whitespace;
 * the element type of `containers` / `tags` (not shown) is taken to be such an id string too.
 */
export const RequestId = z
  .string()
  .min(1, "id must not be empty")
  .regex(/^\S(.*\S)?$/, "id must not start or end with whitespace");

/**
 * Decision (not shown in spec): request numbers are finite and non-negative. zod's `z.number()`
 * already refuses NaN and +/-Infinity; negative prices, bids or percentages are refused here.
 */
export const RequestNumber = z.number().nonnegative("must not be negative");

/**
 * spec, Bid modifier: `value` / `max_value` are "string, decimal". Decision (not shown in spec): a
 * plain non-negative decimal with optional fraction (`1`, `0.50`, `1.2500`); no sign, exponent or
 * bare point, so it is finite by construction. The number of decimals is not limited (the samples
 * show two and four).
 */
export const DecimalString = z.string().regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string such as "1.50"');

/** Refinement shared by PATCH bodies (spec, ops 1 and 4): at least one field must be sent. */
export function hasAnyField(body: Record<string, unknown>): boolean {
  return Object.values(body).some((v) => v !== undefined);
}
/** Message of the `hasAnyField` refinement. */
export const EMPTY_PATCH_MESSAGE = "at least one field must be sent";
