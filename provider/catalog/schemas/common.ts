/**
 * Shared pieces of the wire schemas: identifiers, timestamps, flags, the read envelope, and the two
 * builders every response shape goes through.
 *
 * Wire schemas are snake_case, exactly as the platform sends them. Responses follow "tolerant
 * reader" and requests "strict writer" (provider/catalog/operations.ts); the policy
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

/**
 * A top-level response record: `wireObject` with a required `id` (see the Decision on `wireObject`),
 * described to users as `idDescription` when given.
 */
export function wireRecord<const S extends z.core.$ZodLooseShape>(shape: S, idDescription?: string) {
  return z
    .looseObject(shape)
    .partial()
    .extend({ id: idDescription === undefined ? WireId : WireId.describe(idDescription) });
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

/** A record's creation time, as users read it. */
export const CreateTime = Timestamp.describe("Created, `YYYY-MM-DD HH:MM:SS`.");
/** A record's last update time, as users read it. */
export const UpdateTime = Timestamp.describe("Last updated, `YYYY-MM-DD HH:MM:SS`.");
/** The id of the company (account) a record belongs to, as users read it. */
export const CompanyId = WireId.describe("Company id.");

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
export const OpItems = wireObject({
  op: z.string().describe("How `items` apply: `include` / `exclude` on push tasks, `eq` / `neq` on segments (values seen)."),
  items: z.array(z.string()).describe("The values the rule matches."),
}).describe("One targeting dimension as `{op, items}` (push task and segment targeting, `user_data` values).");
/** Output type of `OpItems`. */
export type OpItems = z.output<typeof OpItems>;

/** Embedded `account` / `creator` object of a zone: {id, name, status, image}. */
export const EmbeddedAccount = wireObject({
  id: WireId.describe("Id."),
  name: z.string().describe("Display name."),
  status: z.string().describe("Status, e.g. `active`."),
  image: z.string().describe("Image URL."),
}).describe("An account or creator embedded in a zone.");

// ---------------------------------------------------------------------------------------------
// Strict writer pieces (request bodies of ops 1-4).
// ---------------------------------------------------------------------------------------------

/**
 * Request bodies refuse only what the spec rules out (docs/decisions.md, "Decisions where the spec says not
 * shown"): spec, rule 10 leaves "the value constraints of every body field" open, so a field is
 * held to the type the spec gives it and to a format the spec names (`#rrggbb`, a decimal, a URL),
 * never to a length, a range or a list of values the spec does not state.
 */

/** Request-body `name`: a string (spec, Resources); its length and content are not shown. */
export const RequestName = z.string();

/**
 * An id sent in a request body: a string (spec, Conventions: "Identifiers are strings"). The element
 * type of bid modifier `containers` / `tags` is not shown; it is taken to be such an id string, as
 * the zone's `containers` and `tags` targeting items are strings (spec, Zone).
 */
export const RequestId = z.string();

/**
 * A number in a request body. zod's `z.number()` refuses NaN and +/-Infinity, which JSON cannot
 * carry (spec, Conventions: requests are JSON); the sign and range are not shown, so a negative
 * number is sent.
 */
export const RequestNumber = z.number();

/**
 * spec, Bid modifier: `value` / `max_value` are "string, decimal", with two and four decimal places
 * in the samples. Decision (not shown in spec): a decimal in that plain form, with an optional minus
 * sign (`1`, `-0.50`, `1.2500`); an exponent, a plus sign or a bare point is another notation than
 * the one given. The number of decimals is not limited.
 */
export const DecimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal string such as "1.50"');

/** Refinement shared by PATCH bodies (spec, ops 1 and 4): at least one field must be sent. */
export function hasAnyField(body: Record<string, unknown>): boolean {
  return Object.values(body).some((v) => v !== undefined);
}
/** Message of the `hasAnyField` refinement. */
export const EMPTY_PATCH_MESSAGE = "at least one field must be sent";
