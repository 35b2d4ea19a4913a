/**
 * JSON bodies read without losing what `JSON.parse` loses: it rounds an integer beyond 2^53 before any
 * schema sees it, and Node 20 gives a reviver no source text. So a body with a run of 16 digits goes to
 * the parser below, which keeps such integers as `bigint`s (what one becomes: provider/catalog/schemas/
 * common.ts), and builds own data properties, so `__proto__` is a field like any other.
 */

/** Every integer beyond `Number.MAX_SAFE_INTEGER` has a run of 16 digits. */
const LONG_DIGIT_RUN = /\d{16}/;

/** Parses a JSON text; integers beyond 2^53 become exact `bigint`s. Throws `SyntaxError` when invalid. */
export function parseJson(text: string): unknown {
  if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text);
  const parser = new ExactParser(text);
  const value = parser.value();
  parser.end();
  return value;
}

/** Sets `key` as an own data property: plain assignment would hit the inherited `__proto__` setter. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** A copy of `value` with each own field mapped by `map`, `__proto__` kept. */
export function mapOwn(value: object, map: (v: unknown, key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) setOwn(out, key, map(v, key));
  return out;
}

/**
 * A deep copy of parsed JSON, `__proto__` kept, each `bigint` as the nearest number (`onLossy` hears
 * its path). Not `structuredClone`: its copies belong to its realm, so in a sandbox (jest, `vm`) its
 * arrays fail `instanceof Array` and Pulumi's serializer sends them to the engine as objects.
 */
export function plainJson(value: unknown, onLossy?: (path: readonly (string | number)[]) => void, path: (string | number)[] = []): unknown {
  if (typeof value === "bigint") {
    const rounded = Number(value);
    if (BigInt(rounded) !== value) onLossy?.(path);
    return rounded;
  }
  if (Array.isArray(value)) return value.map((v: unknown, i) => plainJson(v, onLossy, [...path, i]));
  if (value !== null && typeof value === "object") return mapOwn(value, (v, key) => plainJson(v, onLossy, [...path, key]));
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// JSON forbids raw control characters inside strings (RFC 8259, section 7).
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]+|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WHITESPACE = /[ \t\n\r]*/y;
const LITERALS: Readonly<Record<string, unknown>> = { true: true, false: false, null: null };

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
    const word = Object.keys(LITERALS).find((w) => this.text.startsWith(w, this.at));
    if (word === undefined) throw this.unexpected();
    this.at += word.length;
    return LITERALS[word];
  }

  end(): void {
    this.skipWhitespace();
    if (this.at !== this.text.length) throw this.unexpected();
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++; // {
    if (this.eat("}")) return out;
    do {
      this.skipWhitespace();
      if (this.text[this.at] !== '"') throw this.unexpected();
      const key = this.string();
      if (!this.eat(":")) throw this.unexpected();
      setOwn(out, key, this.value());
    } while (this.eat(","));
    if (!this.eat("}")) throw this.unexpected();
    return out;
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.at++; // [
    if (this.eat("]")) return out;
    do {
      out.push(this.value());
    } while (this.eat(","));
    if (!this.eat("]")) throw this.unexpected();
    return out;
  }

  private string(): string {
    return JSON.parse(this.match(STRING)[0]) as string;
  }

  private number(): number | bigint {
    const m = this.match(NUMBER);
    const n = Number(m[0]);
    const isInteger = m[1] === undefined && m[2] === undefined;
    return isInteger && !Number.isSafeInteger(n) ? BigInt(m[0]) : n;
  }

  private match(pattern: RegExp): RegExpExecArray {
    pattern.lastIndex = this.at;
    const m = pattern.exec(this.text);
    if (!m) throw this.unexpected();
    this.at = pattern.lastIndex;
    return m;
  }

  /** Skips white space, then takes `c` if it is next. */
  private eat(c: string): boolean {
    this.skipWhitespace();
    if (this.text[this.at] !== c) return false;
    this.at++;
    return true;
  }

  private skipWhitespace(): void {
    this.match(WHITESPACE);
  }

  private unexpected(): SyntaxError {
    const found = this.at < this.text.length ? JSON.stringify(this.text[this.at]) : "end of input";
    return new SyntaxError(`Unexpected ${found} in JSON at position ${this.at}`);
  }
}
