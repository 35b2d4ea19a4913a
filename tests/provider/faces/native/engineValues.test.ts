/** Property values between the engine's wire form and the plain values the core works on. */
import {
  SECRET_SIGNATURE,
  OUTPUT_SIGNATURE,
  SIGNATURE_KEY,
  fromEngine,
  propertiesFromEngine,
  toEngine,
} from "../../../../provider/faces/native/engineValues";
import { UNKNOWN_VALUE } from "../../../../provider/resources/inputs/unknowns";

describe("fromEngine", () => {
  it("unwraps secrets at any depth and keeps everything else", () => {
    const secret = (value: unknown) => ({ [SIGNATURE_KEY]: SECRET_SIGNATURE, value });
    expect(fromEngine({ name: secret("N"), items: [secret("1"), "2"], nested: { a: secret({ b: 1 }) } })).toEqual({
      name: "N",
      items: ["1", "2"],
      nested: { a: { b: 1 } },
    });
  });

  it("reads a known output value as its value and an unknown one as the unknown sentinel", () => {
    expect(fromEngine({ [SIGNATURE_KEY]: OUTPUT_SIGNATURE, value: "x" })).toBe("x");
    expect(fromEngine({ [SIGNATURE_KEY]: OUTPUT_SIGNATURE })).toBe(UNKNOWN_VALUE);
  });

  it("reads an absent property map as empty", () => {
    expect(propertiesFromEngine(undefined)).toEqual({});
  });
});

describe("toEngine", () => {
  it("drops undefined fields and array elements, which a Struct cannot hold", () => {
    expect(toEngine({ a: undefined, b: [1, undefined, { c: undefined, d: null }] })).toEqual({ b: [1, { d: null }] });
  });
});
