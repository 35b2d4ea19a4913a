/**
 * Property: whatever schema-valid answer the platform sends to a read, sparse and with unknown
 * fields (named like `Object.prototype` members, colliding with a declared field's camelCase name,
 * with `__proto__` map keys, with integers beyond 2^53, with nulls where the schema allows them and
 * `total` as a number or a numeric string), every data source returns every field: declared fields
 * camelCased, unknown ones kept, none lost, none crashing the read.
 *
 * The records are derived from each read operation's zod schema by one generic walk, which yields
 * the wire value and the SDK value expected of it together. They are served as JSON text by a real
 * loopback server and read through the real client and data-source engine. The seed is fixed
 * (`FC_SEED` overrides it); fast-check prints the seed and the shrunk counterexample of a failure.
 */
import fc from "fast-check";
import type { z } from "zod";
import { closeApiClients, getApiClient } from "../../../provider/client";
import { DATA_SOURCES, clearReadCache, readList, readOne, type DataSource } from "../../../provider/dataSources";
import { startScriptedServer, type ScriptedServer } from "../../helpers/scriptedServer";
import { zodDef } from "../../../provider/wire/zodDef";

const SEED = Number(process.env.FC_SEED ?? 20260521);
const NUM_RUNS = 25;
/** Windows short enough that 16 x NUM_RUNS reads do not wait on the limiter (class C: 10 / 150). */
const WINDOWS = { burstWindowMs: 10, steadyWindowMs: 150 } as const;
const TOKEN = "property-token";

/** A wire value (possibly holding `bigint`s for integers beyond 2^53) and the SDK value it must read as. */
type Pair = readonly [wire: unknown, sdk: unknown];

/** Sets an own property, `__proto__` included (plain assignment would set the prototype). */
function own(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
const objectOf = (entries: readonly (readonly [string, unknown])[]) => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) own(out, k, v);
  return out;
};

/** Independent camelCase of one key: word-joining underscores only. */
const camel = (key: string) => key.replace(/(?<=[a-zA-Z0-9])_+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());

const PROTOTYPE_NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf", "__defineGetter__"];
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,5}(_[a-z0-9]{1,4}){0,2}$/);
/** Keys of maps: data, kept verbatim whatever they look like. */
const mapKey = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, "us_east", "eu-west", "pt_BR", "lastOrder"), word, fc.string({ maxLength: 6 }));

/** An integer beyond 2^53, either sign. */
const hugeInteger = fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 70n }).chain((n) => fc.constantFrom(n, -n));

/** Any JSON value (the value of an unknown field or of `z.unknown()`): read as itself, big integers as the nearest number. */
const anyJson: fc.Arbitrary<Pair> = fc.letrec<{ json: Pair }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc
      .oneof(fc.string(), fc.boolean(), fc.constant(null), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
      .map((v): Pair => [v, Object.is(v, -0) ? 0 : v]),
    hugeInteger.map((n): Pair => [n, Number(n)]),
    fc.array(tie("json"), { maxLength: 3 }).map((items): Pair => [items.map((p) => p[0]), items.map((p) => p[1])]),
    fc
      .uniqueArray(fc.tuple(mapKey, tie("json")), { maxLength: 3, selector: ([k]) => k })
      .map((entries): Pair => [objectOf(entries.map(([k, p]) => [k, p[0]])), objectOf(entries.map(([k, p]) => [k, p[1]]))]),
  ),
})).json;

/** True when the schema (with its wrappers) accepts `undefined`. */
function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** The SDK object expected of a wire object: the declared fields claim their camelCase names first. */
function expectedObject(declared: ReadonlySet<string>, entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const claimed = new Map<string, string>();
  const byPriority = [
    ...entries.filter(([k]) => declared.has(k)),
    ...entries.filter(([k]) => !declared.has(k) && camel(k) === k),
    ...entries.filter(([k]) => !declared.has(k) && camel(k) !== k),
  ];
  for (const [k] of byPriority) if (![...claimed.values()].includes(camel(k))) claimed.set(k, camel(k));
  const losers = entries.filter(([k]) => !claimed.has(k));
  if (losers.length > 0) {
    const reserved = [...claimed].find(([, name]) => name === "collidingWireFields");
    if (reserved) claimed.delete(reserved[0]);
  }
  const out = objectOf(entries.filter(([k]) => claimed.has(k)).map(([k, v]) => [claimed.get(k)!, v]));
  const colliding = entries.filter(([k]) => !claimed.has(k));
  if (colliding.length > 0) own(out, "collidingWireFields", objectOf(colliding));
  return out;
}

/** Unknown keys added to a declared object: prototype names, camelCase twins of declared keys, snake/camel twins. */
function extraKeys(shape: Record<string, z.ZodType>): fc.Arbitrary<string> {
  const declared = Object.keys(shape);
  const twins = declared.filter((k) => camel(k) !== k).map(camel);
  return fc.oneof(
    fc.constantFrom(...PROTOTYPE_NAMES, "sed_2", "sed2", "collidingWireFields", "colliding_wire_fields", ...twins),
    word,
    word.map((w) => w.replace(/_/g, "__")),
  );
}

/** Arbitrary of schema-valid wire values of `schema` with the SDK value each must read as. */
function arbitraryOf(schema: z.ZodType, depth = 0): fc.Arbitrary<Pair> {
  const def = zodDef(schema);
  switch (def.type) {
    case "optional":
    case "readonly":
      return arbitraryOf(def.innerType!, depth);
    case "nullable":
      return fc.oneof(fc.constant<Pair>([null, null]), arbitraryOf(def.innerType!, depth));
    case "lazy":
      return arbitraryOf(def.getter!(), depth);
    case "pipe":
      // A transform of a leaf (an id read as a string, a total as a number): the schema says what it reads as.
      return arbitraryOf(def.in!, depth).map(([wire]): Pair => [wire, schema.parse(wire)]);
    case "union":
      return fc.oneof(...def.options!.map((o) => arbitraryOf(o, depth)));
    case "string":
      return fc.string().map((s): Pair => [s, s]);
    case "boolean":
      return fc.boolean().map((b): Pair => [b, b]);
    case "number":
      return schema.safeParse(0.5).success
        ? fc.double({ noNaN: true, noDefaultInfinity: true }).map((n): Pair => [n, Object.is(n, -0) ? 0 : n])
        : fc.oneof(
            fc.integer().map((n): Pair => [n, n]),
            hugeInteger.map((n): Pair => [n, Number(n)]),
          );
    case "bigint":
      return hugeInteger.map((n): Pair => [n, n]);
    case "unknown":
    case "any":
      return anyJson;
    case "array":
      // Deep enough for the recursive filter nodes; below, arrays are empty (and not built).
      if (depth > 4) return fc.constant<Pair>([[], []]);
      return fc
        .array(arbitraryOf(def.element!, depth + 1), { maxLength: 3 })
        .map((items): Pair => [items.map((p) => p[0]), items.map((p) => p[1])]);
    case "record":
      return fc
        .uniqueArray(fc.tuple(mapKey, arbitraryOf(def.valueType!, depth + 1)), { maxLength: 3, selector: ([k]) => k })
        .map((entries): Pair => [objectOf(entries.map(([k, p]) => [k, p[0]])), objectOf(entries.map(([k, p]) => [k, p[1]]))]);
    case "object": {
      const shape = def.shape!;
      const declared = new Set(Object.keys(shape));
      const fields = Object.entries(shape).map(([key, field]) => {
        const value = arbitraryOf(field, depth + 1).map((p) => [key, p] as const);
        // Sparse: an optional field is left out about half the time.
        return isOptional(field) ? fc.option(value, { nil: undefined }) : value;
      });
      const extras = fc.uniqueArray(fc.tuple(extraKeys(shape), anyJson), { maxLength: depth > 2 ? 1 : 4, selector: ([k]) => k });
      return fc.tuple(fc.tuple(...fields), extras).map(([present, unknown]): Pair => {
        const entries = [
          ...present.filter((f) => f !== undefined),
          ...unknown.filter(([k]) => !declared.has(k)).map(([k, p]) => [k, p] as const),
        ];
        return [
          objectOf(entries.map(([k, p]) => [k, p[0]])),
          expectedObject(
            declared,
            entries.map(([k, p]) => [k, p[1]]),
          ),
        ];
      });
    }
    default:
      throw new Error(`no arbitrary for a zod ${def.type}: teach this walk the new schema kind`);
  }
}

/** JSON text of a wire value: `bigint`s as their digits, `__proto__` keys as fields. */
function jsonText(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

let server: ScriptedServer;
let body = "";

beforeAll(async () => {
  server = await startScriptedServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  getApiClient({ baseUrl: server.url, token: TOKEN, limiterOptions: { ...WINDOWS } });
});
afterAll(async () => {
  clearReadCache();
  await closeApiClients();
  await server.close();
});

const argsOf = (source: DataSource) => Object.fromEntries(Object.keys(source.pathArgs).map((a) => [a, "1"]));
const total = fc.nat({ max: 1000 }).chain((n) => fc.constantFrom<Pair>([n, n], [String(n), n]));

it.each(Object.values(DATA_SOURCES).map((s) => [s.functionName, s] as const))(
  "%s returns every field of any schema-valid answer",
  async (_name, source) => {
    const record = arbitraryOf(source.record);
    const items = source.shape === "one" ? fc.tuple(record) : fc.array(record, { maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(total, items, async ([wireTotal, sdkTotal], records) => {
        clearReadCache();
        body = jsonText({ total: wireTotal, items: records.map((r) => r[0]) });
        const connection = { baseUrl: server.url, token: TOKEN };
        const options = { onWarning: () => undefined };
        if (source.shape === "one") {
          expect(await readOne(source, argsOf(source), connection, options)).toEqual(records[0]![1]);
        } else {
          expect(await readList(source, argsOf(source), connection, options)).toEqual({ total: sdkTotal, items: records.map((r) => r[1]) });
        }
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  },
);
