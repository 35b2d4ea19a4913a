/**
 * Schema-driven mapping between wire names (snake_case) and SDK names (camelCase), never a blind deep
 * rename (provider/catalog/operations.ts): the keys of `z.record(...)` maps are data (language codes,
 * `qps` regions, `user_data`, `properties`, `metadata`, macro `fields`) and stay verbatim. Unknown fields
 * are renamed as known ones, their values kept as they are; `constructor` or `__proto__` is a field too.
 */
import type { z } from "zod";
import { mapOwn, plainJson, setOwn } from "./json";
import { zodDef } from "./zodDef";

type AnySchema = z.ZodType;

/** `ab_test_config` -> `abTestConfig`, `description_2` -> `description2`; leading and trailing `_` stay (`__proto__`). */
export const snakeToCamel = (name: string): string => name.replace(/(?<=[a-zA-Z0-9])_+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());

/** `abTestConfig` -> `ab_test_config`; used only for keys the schema does not know. */
export const camelToSnake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Wrappers that do not change a value's structure. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"]);

function structural(schema: AnySchema): AnySchema {
  for (let current = schema; ;) {
    const def = zodDef(current);
    if (WRAPPERS.has(def.type)) current = def.innerType!;
    else if (def.type === "lazy") current = def.getter!();
    // A transform's output has no schema; its structure is the input's.
    else if (def.type === "pipe") current = zodDef(def.out!).type === "transform" ? def.in! : def.out!;
    else return current;
  }
}

type Path = readonly (string | number)[];
/** Hears the path of each integer beyond 2^53 that could only be read as a rounded number. */
type OnLossy = ((path: Path) => void) | undefined;
type Shape = Record<string, AnySchema>;

/**
 * Decision (not shown in spec): two keys with one camelCase name (`sed_2` beside `sed2`) lose
 * nothing. The declared field takes the name, then an unknown key already so spelled, then one
 * renamed to it; every other key is kept under its wire name in this map (a key itself named
 * `collidingWireFields` then goes there too).
 */
export const COLLIDING_WIRE_FIELDS = "collidingWireFields";

function toSdkValue(schema: AnySchema, value: unknown, onLossy: OnLossy, path: Path): unknown {
  if (value === null || value === undefined) return value;
  const def = zodDef(structural(schema));
  switch (def.type) {
    case "object":
      return isPlainObject(value) ? objectToSdk(def.shape!, value, onLossy, path) : leafToSdk(schema, value, onLossy, path);
    case "record":
      // Keys of a record are data: verbatim, `__proto__` included.
      if (!isPlainObject(value)) return leafToSdk(schema, value, onLossy, path);
      return mapOwn(value, (v, key) => toSdkValue(def.valueType!, v, onLossy, [...path, key]));
    case "array":
      if (!Array.isArray(value)) return leafToSdk(schema, value, onLossy, path);
      return value.map((v: unknown, i) => toSdkValue(def.element!, v, onLossy, [...path, i]));
    case "tuple":
      if (!Array.isArray(value)) return leafToSdk(schema, value, onLossy, path);
      return value.map((v: unknown, i) => {
        const item = def.items![i] ?? def.rest;
        return item ? toSdkValue(item, v, onLossy, [...path, i]) : plainJson(v, onLossy, [...path, i]);
      });
    case "union": {
      // Only object options have keys to map; the first object option whose field names match wins.
      const option = isPlainObject(value) ? pickObjectOption(def.options!, value, "toSdk") : undefined;
      return option ? toSdkValue(option, value, onLossy, path) : leafToSdk(schema, value, onLossy, path);
    }
    default:
      return leafToSdk(schema, value, onLossy, path);
  }
}

/** A leaf: the schema's output (an id's decimal string), else the value as JSON (the tolerant reader keeps it). */
function leafToSdk(schema: AnySchema, value: unknown, onLossy: OnLossy, path: Path): unknown {
  const parsed = schema.safeParse(value);
  if (typeof value === "bigint" && parsed.success && typeof parsed.data === "number" && BigInt(parsed.data) !== value) {
    onLossy?.(path);
  }
  return plainJson(parsed.success ? parsed.data : value, onLossy, [...path]);
}

function objectToSdk(shape: Shape, value: Record<string, unknown>, onLossy: OnLossy, path: Path): Record<string, unknown> {
  const keys = Object.keys(value);
  const declared = (key: string) => Object.hasOwn(shape, key);
  // Claim order of a camelCase name: declared fields, then keys already spelled so, then the rest.
  const claimOrder = [
    ...keys.filter(declared),
    ...keys.filter((k) => !declared(k) && snakeToCamel(k) === k),
    ...keys.filter((k) => !declared(k) && snakeToCamel(k) !== k),
  ];
  const nameOf = new Map<string, string>();
  const claimedBy = new Map<string, string>();
  for (const key of claimOrder) {
    const name = snakeToCamel(key);
    if (claimedBy.has(name)) continue;
    claimedBy.set(name, key);
    nameOf.set(key, name);
  }
  if (nameOf.size < keys.length && claimedBy.has(COLLIDING_WIRE_FIELDS)) nameOf.delete(claimedBy.get(COLLIDING_WIRE_FIELDS)!);

  const out: Record<string, unknown> = {};
  const colliding: Record<string, unknown> = {};
  for (const key of keys) {
    const v = declared(key) ? toSdkValue(shape[key], value[key], onLossy, [...path, key]) : plainJson(value[key], onLossy, [...path, key]);
    const name = nameOf.get(key);
    if (name === undefined) setOwn(colliding, key, v);
    else setOwn(out, name, v);
  }
  if (nameOf.size < keys.length) out[COLLIDING_WIRE_FIELDS] = colliding;
  return out;
}

function toWireValue(schema: AnySchema, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  const def = zodDef(structural(schema));
  switch (def.type) {
    case "object":
      return isPlainObject(value) ? objectToWire(def.shape!, value) : value;
    case "record":
      return isPlainObject(value) ? mapOwn(value, (v) => toWireValue(def.valueType!, v)) : value;
    case "array":
      return Array.isArray(value) ? value.map((v) => toWireValue(def.element!, v)) : value;
    case "tuple":
      if (!Array.isArray(value)) return value;
      return value.map((v: unknown, i) => {
        const item = def.items![i] ?? def.rest;
        return item ? toWireValue(item, v) : v;
      });
    case "union": {
      if (!isPlainObject(value)) return value;
      const option = pickObjectOption(def.options!, value, "toWire");
      return option ? toWireValue(option, value) : value;
    }
    default:
      return value;
  }
}

function objectToWire(shape: Shape, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const wireNameOf = new Map(Object.keys(shape).map((k) => [snakeToCamel(k), k]));
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const wireName = wireNameOf.get(key) ?? (Object.hasOwn(shape, key) ? key : camelToSnake(key));
    setOwn(out, wireName, Object.hasOwn(shape, wireName) ? toWireValue(shape[wireName], v) : v);
  }
  return out;
}

function pickObjectOption(options: AnySchema[], value: Record<string, unknown>, direction: "toSdk" | "toWire"): AnySchema | undefined {
  let best: AnySchema | undefined;
  let bestScore = -1;
  for (const option of options) {
    const def = zodDef(structural(option));
    if (def.type !== "object") continue;
    const known = new Set(Object.keys(def.shape!).map((k) => (direction === "toSdk" ? k : snakeToCamel(k))));
    const score = Object.keys(value).filter((k) => known.has(k)).length;
    if (score > bestScore) {
      best = option;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Wire value (as `parseJson` parsed it, or a schema's output) -> SDK value, walking `schema` over it;
 * leaves take the schema's output. `onLossy` hears the path of every integer beyond 2^53 rounded.
 */
export function toSdk<T = unknown>(schema: AnySchema, wireValue: unknown, onLossy?: (path: Path) => void): T {
  return toSdkValue(schema, wireValue, onLossy, []) as T;
}

/** What a read of `subject` says when `toSdk` read integers beyond 2^53 at `paths` as the nearest number. */
export function roundedIntegersNotice(subject: string, paths: readonly string[]): string {
  return `${subject}: integers beyond 2^53 were read as the nearest number (a JavaScript number keeps 53 bits): ${paths.join(", ")}`;
}

/** SDK value with camelCase field names -> wire value for `schema`; undefined fields are dropped. */
export const toWire = <T = unknown>(schema: AnySchema, sdkValue: unknown): T => toWireValue(schema, sdkValue) as T;

/** Type-level twins of `snakeToCamel` and `toSdk` (records' keys, which are data, stay `string`). */
export type CamelKey<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelKey<Tail>>}` : S;

export type Camelize<T> = T extends readonly (infer E)[]
  ? Camelize<E>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelKey<K> : K]: Camelize<T[K]> }
    : T;
