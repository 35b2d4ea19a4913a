/** The hidden identity input (`provider/faces/dynamic/identityInput.ts`). */
import { IDENTITY_INPUT, identityOf, withIdentityOf } from "../../../../provider/faces/dynamic/identityInput";

const URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/adplatform:BidStrategy::a";

it("reads a URN, and nothing from an unknown value, another type or an absent map", () => {
  expect(identityOf({ [IDENTITY_INPUT]: URN })).toBe(URN);
  expect(identityOf({ [IDENTITY_INPUT]: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" })).toBeUndefined();
  expect(identityOf({ [IDENTITY_INPUT]: 3 })).toBeUndefined();
  expect(identityOf(undefined)).toBeUndefined();
});

it("puts the identity back into checked inputs as it came, and adds nothing when there was none", () => {
  expect(withIdentityOf({ name: "a" }, { name: "a", [IDENTITY_INPUT]: URN })).toEqual({ name: "a", [IDENTITY_INPUT]: URN });
  expect(withIdentityOf({ name: "a" }, { name: "a" })).toEqual({ name: "a" });
});
