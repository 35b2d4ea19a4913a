/**
 * Schema-driven mapping between wire names (snake_case) and SDK names (camelCase).
 *
 * Never a blind deep rename (docs/ARCHITECTURE.md, "The operation catalog"): the walk follows the
 * zod wire schema, renames the keys of objects the schema declares as records with named fields,
 * and keeps the keys of `z.record(...)` maps verbatim, because those keys are data (language codes
 * in `settings.image`, region codes in `qps`, data names in `user_data`, labels in `properties`,
 * `metadata`, macro record `fields`).
 *
 * Unknown extra fields of an object (the tolerant reader keeps them) are renamed the same way as
 * known ones, and their values are kept verbatim since no schema describes them.
 */
import type { z } from "zod";

type AnySchema = z.ZodType;
interface Def {
  type: string;
  innerType?: AnySchema;
  in?: AnySchema;
  out?: AnySchema;
  element?: AnySchema;
  valueType?: AnySchema;
  options?: AnySchema[];
  items?: AnySchema[];
  rest?: AnySchema | null;
  getter?: () => AnySchema;
  shape?: Record<string, AnySchema>;
}

const defOf = (schema: AnySchema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** `ab_test_config` -> `abTestConfig`, `description_2` -> `description2`. */
export function snakeToCamel(name: string): string {
  return name.replace(/_+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `abTestConfig` -> `ab_test_config`; used only for keys the schema does not know. */
export function camelToSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Strips wrappers that do not change the structure of a value. */
function structural(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    switch (def.type) {
      case "optional":
      case "nullable":
      case "default":
      case "prefault":
      case "nonoptional":
      case "readonly":
      case "catch":
        current = def.innerType!;
        continue;
      case "lazy":
        current = def.getter!();
        continue;
      case "pipe":
        // A transform's output has no schema; its structure is the input's.
        current = defOf(def.out!).type === "transform" ? def.in! : def.out!;
        continue;
      default:
        return current;
    }
  }
}

type Direction = "toSdk" | "toWire";

function mapValue(schema: AnySchema, value: unknown, direction: Direction): unknown {
  if (value === null || value === undefined) return value;
  const s = structural(schema);
  const def = defOf(s);
  switch (def.type) {
    case "object":
      return isPlainObject(value) ? mapObject(def.shape!, value, direction) : value;
    case "record":
      if (!isPlainObject(value)) return value;
      // Keys of a record are data: verbatim.
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapValue(def.valueType!, v, direction)]));
    case "array":
      return Array.isArray(value) ? value.map((v) => mapValue(def.element!, v, direction)) : value;
    case "tuple":
      if (!Array.isArray(value)) return value;
      return value.map((v: unknown, i) => {
        const item = def.items![i] ?? def.rest ?? undefined;
        return item ? mapValue(item, v, direction) : v;
      });
    case "union": {
      // Only object options have keys to map; the first object option whose field names match wins.
      if (!isPlainObject(value)) return value;
      const option = pickObjectOption(def.options!, value, direction);
      return option ? mapValue(option, value, direction) : value;
    }
    default:
      return value;
  }
}

function pickObjectOption(options: AnySchema[], value: Record<string, unknown>, direction: Direction): AnySchema | undefined {
  let best: AnySchema | undefined;
  let bestScore = -1;
  for (const option of options) {
    const def = defOf(structural(option));
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

function mapObject(shape: Record<string, AnySchema>, value: Record<string, unknown>, direction: Direction): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (direction === "toSdk") {
    for (const [key, v] of Object.entries(value)) {
      const field = shape[key];
      out[snakeToCamel(key)] = field ? mapValue(field, v, direction) : v;
    }
  } else {
    const wireNameOf = new Map(Object.keys(shape).map((k) => [snakeToCamel(k), k]));
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const wireName = wireNameOf.get(key) ?? (key in shape ? key : camelToSnake(key));
      const field = shape[wireName];
      out[wireName] = field ? mapValue(field, v, direction) : v;
    }
  }
  return out;
}

/** Wire value (already parsed by `schema`) -> SDK value with camelCase field names. */
export function toSdk<T = unknown>(schema: AnySchema, wireValue: unknown): T {
  return mapValue(schema, wireValue, "toSdk") as T;
}

/** SDK value with camelCase field names -> wire value for `schema`; undefined fields are dropped. */
export function toWire<T = unknown>(schema: AnySchema, sdkValue: unknown): T {
  return mapValue(schema, sdkValue, "toWire") as T;
}

/** Type-level twin of `snakeToCamel` for one key. */
export type CamelKey<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelKey<Tail>>}` : S;

/**
 * Type-level twin of `toSdk`: renames the declared keys of objects; index signatures (records,
 * whose keys are data) stay `string`.
 */
export type Camelize<T> = T extends readonly (infer E)[]
  ? Camelize<E>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelKey<K> : K]: Camelize<T[K]> }
    : T;
