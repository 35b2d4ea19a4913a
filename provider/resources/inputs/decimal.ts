/**
 * The spec gives bid modifier `value`/`max_value` as "string, decimal", bid strategy's as numbers: a program
 * may write either, `check` converts to the wire form, and `1.5`, `"1.5"` and `"1.50"` are never a diff.
 */
import { z } from "zod";
import { DecimalString, RequestNumber } from "../../catalog";

/** A finite number as a plain decimal string, never in exponent form, with the shortest digits that round-trip. */
export function toPlainDecimal(n: number): string {
  const text = String(n);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
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

/** Same decimal value, each a number or decimal string; anything else equal only when identical. */
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

const numberOrDecimal = z.union([RequestNumber, DecimalString], { error: 'must be a finite number or a decimal string such as "1.50"' });

/** For a wire decimal string. Decision (not shown in spec): a number is accepted and sent as its plain decimal. */
export const DecimalStringInput = numberOrDecimal.transform((v) => (typeof v === "number" ? toPlainDecimal(v) : v));

/** For a wire number. Decision (not shown in spec): a decimal string is accepted and sent as its number. */
export const NumberInput = numberOrDecimal.transform((v) => (typeof v === "string" ? Number(v) : v));
