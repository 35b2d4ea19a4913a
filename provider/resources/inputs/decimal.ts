/**
 * Numbers and decimal strings, one notion of equality for both.
 *
 * The spec gives bid modifier `value`/`max_value` as "string, decimal" and bid strategy
 * `value`/`max_value` as JSON numbers. A program may write either form for either resource; `check`
 * converts to the wire form, and `1.5`, `"1.5"` and `"1.50"` are the same value everywhere, so
 * equivalent values never show as a diff (see ./equivalence).
 */
import { z } from "zod";
import { DecimalString, RequestNumber } from "../../catalog";

/**
 * A finite number as a plain decimal string, never in exponent form (`1e21` -> `"1000...0"`,
 * `1e-7` -> `"0.0000001"`), with the shortest digits that round-trip.
 */
export function toPlainDecimal(n: number): string {
  const text = String(n);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  // Shift the point of the shortest round-trip digits (what String() printed) by the exponent.
  const [, sign, lead, rest = "", exp] = match;
  const digits = lead + rest;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** `"001.500"` -> `"1.5"`, `"-0.0"` -> `"0"`: one spelling per decimal value. */
export function canonicalDecimal(text: string): string {
  const negative = text.startsWith("-");
  const [intPart, fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const int = intPart.replace(/^0+(?=\d)/, "");
  const frac = fraction.replace(/0+$/, "");
  const magnitude = frac === "" ? int : `${int}.${frac}`;
  return negative && magnitude !== "0" ? `-${magnitude}` : magnitude;
}

/**
 * True when `a` and `b` are the same decimal value, each a number or a decimal string. Values of
 * other types (or malformed strings) are equal only when identical.
 */
export function decimalsEqual(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): string | undefined => {
    if (typeof v === "number" && Number.isFinite(v)) return canonicalDecimal(toPlainDecimal(v));
    if (typeof v === "string" && DecimalString.safeParse(v).success) return canonicalDecimal(v);
    return undefined;
  };
  const ca = canon(a);
  const cb = canon(b);
  return ca !== undefined && cb !== undefined ? ca === cb : a === b;
}

const NUMBER_OR_DECIMAL = 'must be a finite number or a decimal string such as "1.50"';

/**
 * SDK input for a wire decimal string (bid modifier `value`, `maxValue`). Decision (not shown in
 * spec): a program may give a number or a decimal string; a number is sent as its plain decimal
 * (`1.5` -> `"1.5"`), a string as written (the wire rules live in the catalog's `DecimalString`).
 */
export const DecimalStringInput = z
  .union([RequestNumber, DecimalString], { error: NUMBER_OR_DECIMAL })
  .transform((v) => (typeof v === "number" ? toPlainDecimal(v) : v));

/**
 * SDK input for a wire number (bid strategy `value`, `maxValue`). Decision (not shown in spec): a
 * decimal string is accepted too and sent as its number.
 */
export const NumberInput = z
  .union([RequestNumber, DecimalString], { error: NUMBER_OR_DECIMAL })
  .transform((v) => (typeof v === "string" ? Number(v) : v));
