/** `parseJson`: `JSON.parse` everywhere but for integers beyond 2^53, which it keeps exact. */
import fc from "fast-check";
import { parseJson, plainJson } from "../../../provider/wire/json";

/** A string field whose 16 digits send any body through the exact parser. */
const LONG_DIGITS = '"1234567890123456"';

describe("parseJson", () => {
  it("reads what JSON.parse reads, on the exact path too (up to the rounding of big integers)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = `[${LONG_DIGITS},${JSON.stringify(value)}]`;
        expect(plainJson(parseJson(text))).toEqual(JSON.parse(text));
      }),
      { seed: 20260521, numRuns: 200 },
    );
  });

  it("keeps integers beyond 2^53 exact and leaves fractions and exponents to JSON.parse", () => {
    expect(parseJson('{"a":9007199254740993,"b":-9007199254740993,"c":9007199254740991,"d":1.5e300,"e":12345678901234567.5}')).toEqual({
      a: 9007199254740993n,
      b: -9007199254740993n,
      c: 9007199254740991,
      d: 1.5e300,
      e: Number("12345678901234567.5"),
    });
  });

  it("keeps a __proto__ key as a field", () => {
    const value = parseJson(`{"__proto__":{"polluted":1},"x":${LONG_DIGITS}}`) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: 1 });
  });

  it.each(["", "{", '{"a":1,}', "[1 2]", "01", '"\u0001"', '{"a":1}x', `[${LONG_DIGITS},]`, "[-]", "tru"])("refuses %j", (text) => {
    expect(() => parseJson(`${text}`)).toThrow(SyntaxError);
    expect(() => parseJson(`[${LONG_DIGITS},${text}]`)).toThrow(SyntaxError);
  });
});
