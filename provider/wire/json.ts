/**
 * JSON bodies as the platform sends them, read without losing what `JSON.parse` loses.
 *
 * `JSON.parse` rounds an integer beyond 2^53 to the nearest double before any schema sees it, so an
 * id such as `9007199254740993` would arrive as `9007199254740992`. Node 20 gives a reviver no access
 * to the source text, so a body that holds a run of 16 or more digits (every integer beyond 2^53 has
 * one) is read by the small parser below, which turns such integers into exact `bigint`s; any other
 * body takes the native fast path. What a `bigint` becomes is the schema's business (`WireId`: its
 * exact decimal string; a number field: the nearest number), see provider/catalog/schemas/common.ts.
 *
 * Objects are built with own data properties, so a key named `__proto__` is a field like any other
 * (as `JSON.parse` keeps it) instead of replacing the object's prototype.
 */

/** A run of digits long enough to be an integer beyond `Number.MAX_SAFE_INTEGER` (16 digits). */
const LONG_DIGIT_RUN = /\d{16}/;

/** Parses a JSON text; integers beyond 2^53 become exact `bigint`s. Throws `SyntaxError` when invalid. */
export function parseJson(text: string): unknown {
  if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text);
  const parser = new ExactParser(text);
  const value = parser.value();
  parser.end();
  return value;
}

/**
 * Sets `key` on `target` as an own enumerable data property. Plain assignment would hit the
 * `__proto__` setter inherited from `Object.prototype` and lose the field.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/**
 * A deep copy of a parsed JSON value as JavaScript can hand it on: plain objects and arrays,
 * `__proto__` keys kept, a `bigint` (an integer beyond 2^53) turned into the nearest number.
 * `onLossy` hears the path of each such rounding. Written out rather than `structuredClone`, whose
 * copies belong to the realm that defines it: in a sandbox with its own globals (jest's test
 * environment, `vm` contexts) those arrays fail `instanceof Array`, and Pulumi's serializer would
 * then send them to the engine as objects.
 */
export function plainJson(value: unknown, onLossy?: (path: readonly (string | number)[]) => void, path: (string | number)[] = []): unknown {
  if (typeof value === "bigint") {
    const rounded = Number(value);
    if (BigInt(rounded) !== value) onLossy?.(path);
    return rounded;
  }
  if (Array.isArray(value)) return value.map((v: unknown, i) => plainJson(v, onLossy, [...path, i]));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) setOwn(out, key, plainJson(v, onLossy, [...path, key]));
    return out;
  }
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// JSON forbids raw control characters inside strings (RFC 8259, section 7).
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]+|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** Recursive descent over the JSON grammar (RFC 8259); strings are decoded by `JSON.parse`. */
class ExactParser {
  private at = 0;
  constructor(private readonly text: string) {}

  value(): unknown {
    this.skipWhitespace();
    const c = this.text[this.at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [word, literal] of LITERALS) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return literal;
      }
    }
    throw this.unexpected();
  }

  end(): void {
    this.skipWhitespace();
    if (this.at !== this.text.length) throw this.unexpected();
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++; // {
    this.skipWhitespace();
    if (this.eat("}")) return out;
    do {
      this.skipWhitespace();
      if (this.text[this.at] !== '"') throw this.unexpected();
      const key = this.string();
      this.skipWhitespace();
      if (!this.eat(":")) throw this.unexpected();
      setOwn(out, key, this.value());
      this.skipWhitespace();
    } while (this.eat(","));
    if (!this.eat("}")) throw this.unexpected();
    return out;
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.at++; // [
    this.skipWhitespace();
    if (this.eat("]")) return out;
    do {
      out.push(this.value());
      this.skipWhitespace();
    } while (this.eat(","));
    if (!this.eat("]")) throw this.unexpected();
    return out;
  }

  private string(): string {
    const token = this.match(STRING);
    return JSON.parse(token) as string;
  }

  private number(): number | bigint {
    NUMBER.lastIndex = this.at;
    const m = NUMBER.exec(this.text);
    if (!m) throw this.unexpected();
    this.at = NUMBER.lastIndex;
    const n = Number(m[0]);
    const isInteger = m[1] === undefined && m[2] === undefined;
    return isInteger && !Number.isSafeInteger(n) ? BigInt(m[0]) : n;
  }

  private match(pattern: RegExp): string {
    pattern.lastIndex = this.at;
    const m = pattern.exec(this.text);
    if (!m) throw this.unexpected();
    this.at = pattern.lastIndex;
    return m[0];
  }

  private eat(c: string): boolean {
    if (this.text[this.at] !== c) return false;
    this.at++;
    return true;
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private unexpected(): SyntaxError {
    const found = this.at < this.text.length ? JSON.stringify(this.text[this.at]) : "end of input";
    return new SyntaxError(`Unexpected ${found} in JSON at position ${this.at}`);
  }
}

const LITERALS: readonly (readonly [string, unknown])[] = [
  ["true", true],
  ["false", false],
  ["null", null],
];
