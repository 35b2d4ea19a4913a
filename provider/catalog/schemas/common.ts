/**
 * Shared pieces of the wire schemas (snake_case, as the platform sends them). Responses follow
 * "tolerant reader", a policy stated once below and applied by `wireObject` / `wireRecord`; requests
 * follow "strict writer".
 */
import { z } from "zod";

/**
 * Decision (not shown in spec): the spec shows samples, not guarantees, so a top-level response record
 * requires only its `id` (the client addresses it by it; without one the read fails with
 * "items.N.id: is missing"). Nested objects have all-optional fields, `id` included: a nested record
 * (a modal's message, a macro's record) is nothing the client addresses. Unknown fields are kept so a
 * newer platform never breaks a read. Nullable only where the spec says so; types checked where given.
 */
export function wireObject<const S extends z.core.$ZodLooseShape>(shape: S) {
  return z.looseObject(shape).partial();
}

/** A top-level response record: `wireObject` with a required `id` (see the Decision above). */
export function wireRecord<const S extends z.core.$ZodLooseShape>(shape: S, idDescription?: string) {
  return wireObject(shape).extend({ id: idDescription === undefined ? WireId : WireId.describe(idDescription) });
}

/** Issue message of a required response field that is absent (a record's `id`). */
export const MISSING_FIELD = "is missing";

/**
 * spec, Conventions: "Identifiers are strings, including numeric-looking ones"; a JSON integer is read
 * as its decimal string. Decision (not shown in spec): an id beyond 2^53 keeps every digit (`parseJson`
 * hands it over as a `bigint`).
 */
export const WireId = z
  .union([z.string(), z.number().int(), z.bigint()], {
    error: (issue) => (issue.input === undefined ? MISSING_FIELD : "must be a string or an integer"),
  })
  .transform((v) => String(v));

/** A flag sent as a string (`"0"`/`"1"`, external demand); an integer is read as its string, as for ids. */
export const StringFlag = WireId;

/** spec, Conventions: "Flags are often integers `0` or `1`". Other integers are not refused. */
export const IntFlag = z.number().int();

export const Int = z.number().int();

/** spec, Conventions: `YYYY-MM-DD HH:MM:SS`. Not checked: another format must not make a record unreadable. */
export const Timestamp = z.string();

export const CreateTime = Timestamp.describe("Created, `YYYY-MM-DD HH:MM:SS`.");
export const UpdateTime = Timestamp.describe("Last updated, `YYYY-MM-DD HH:MM:SS`.");
export const CompanyId = WireId.describe("Company id.");

/** spec, Conventions: `total` is an integer, but "one list response shows it as a string"; both parse to a number. */
export const Total = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, "total must be a non-negative integer")])
  .transform((v) => Number(v));

/** The envelope of every read (spec, Conventions); what zero items mean to a single-record read is the caller's business. */
export function envelope<R extends z.ZodType>(record: R) {
  return z.looseObject({ total: Total, items: z.array(record) });
}
export interface Envelope<R> {
  total: number;
  items: R[];
  [extra: string]: unknown;
}

export const OpItems = wireObject({
  op: z.string().describe("How `items` apply: `include` / `exclude` on push tasks, `eq` / `neq` on segments (values seen)."),
  items: z.array(z.string()).describe("The values the rule matches."),
}).describe("One targeting dimension as `{op, items}` (push task and segment targeting, `user_data` values).");

export const EmbeddedAccount = wireObject({
  id: WireId.describe("Id."),
  name: z.string().describe("Display name."),
  status: z.string().describe("Status, e.g. `active`."),
  image: z.string().describe("Image URL."),
}).describe("An account or creator embedded in a zone.");

// Strict writer (request bodies of ops 1-4): spec, rule 10 leaves "the value constraints of every body
// field" open, so a field is held to the type and the format the spec names (`#rrggbb`, a decimal, a
// URL), never to a length, range or list of values it does not state (docs/decisions.md).

/** spec, Resources: a string; its length and content are not shown. */
export const RequestName = z.string();

/**
 * spec, Conventions: "Identifiers are strings". The element type of bid modifier `containers` / `tags`
 * is not shown; taken to be such a string, as the zone's targeting items are (spec, Zone).
 */
export const RequestId = z.string();

/** Refuses NaN and +/-Infinity, which JSON cannot carry; sign and range are not shown, so a negative number is sent. */
export const RequestNumber = z.number();

/**
 * spec, Bid modifier: `value` / `max_value` are "string, decimal". Decision (not shown in spec): that
 * plain form with an optional minus (`1`, `-0.50`, `1.2500`), any number of decimals; an exponent, a
 * plus sign or a bare point is another notation.
 */
export const DecimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal string such as "1.50"');

/** PATCH bodies (spec, ops 1 and 4): at least one field must be sent. */
export function hasAnyField(body: Record<string, unknown>): boolean {
  return Object.values(body).some((v) => v !== undefined);
}
export const EMPTY_PATCH_MESSAGE = "at least one field must be sent";
