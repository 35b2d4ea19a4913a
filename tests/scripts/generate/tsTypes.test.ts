/** The TypeScript type text both SDK generators write. */
import { arrayType, recordType, scalarType, unionType } from "../../../scripts/generate/tsTypes";

it("spells an integer as a number and other scalars as themselves", () => {
  expect(["string", "number", "integer", "boolean"].map((s) => scalarType(s as "string"))).toEqual([
    "string",
    "number",
    "number",
    "boolean",
  ]);
});

it("parenthesises a union element of an array", () => {
  expect(arrayType("string")).toBe("string[]");
  expect(arrayType("string | null")).toBe("(string | null)[]");
  expect(arrayType(recordType("number"))).toBe("Record<string, number>[]");
});

it("names each member of a union once", () => {
  expect(unionType(["number", "string", "number"])).toBe("number | string");
});
