/**
 * Why the policy pack has no rule on objects a change leaves on the platform (issue: named at
 * preview, refusable): a policy would need the old state (the id and name that stay) or the step's
 * operation (replace, delete), and Pulumi's policy API gives it neither. The engine calls a pack
 * with `AnalyzeRequest` per resource and `AnalyzeStackRequest` for the stack, which carry the new
 * state only; `@pulumi/policy`'s arguments mirror them. If a later version adds either, these
 * tests fail and the rule can be written (policy/README.md says so).
 */
import * as analyzer from "@pulumi/pulumi/proto/analyzer_pb";
import type { PolicyResource, ResourceValidationArgs, StackValidationArgs } from "@pulumi/policy";

/** The fields a protocol message carries, from its generated getters. */
const fieldsOf = (message: object): string[] =>
  Object.getOwnPropertyNames(Object.getPrototypeOf(message))
    .filter((name) => name.startsWith("get") && name !== "getJsPbMessageId")
    .map((name) => name.slice(3))
    .sort();

/** Names that would give a policy the old state or the operation. */
const OLD_OR_OPERATION = /old|olds|prior|previous|before|operation|^op$|step|diff|replace|delete|id$/i;

it("the engine sends a resource's policies its new state only: no old state, id or operation", () => {
  const fields = fieldsOf(new analyzer.AnalyzeRequest());
  expect(fields).toEqual(["Name", "Options", "Properties", "Provider", "Type", "Urn"]);
  expect(fields.filter((field) => OLD_OR_OPERATION.test(field))).toEqual([]);
});

it("the engine sends a stack's policies each resource's new state only", () => {
  expect(fieldsOf(new analyzer.AnalyzeStackRequest())).toEqual(["ResourcesList"]);
  const fields = fieldsOf(new analyzer.AnalyzerResource());
  expect(fields.filter((field) => OLD_OR_OPERATION.test(field))).toEqual([]);
});

// The SDK's arguments mirror the protocol: none of these names exists (a compile error here, and
// in `npm run typecheck`, when one does).
type Forbidden = "olds" | "oldProps" | "oldInputs" | "oldState" | "operation" | "op" | "id" | "replaces";
const resourceArgs: Extract<keyof ResourceValidationArgs, Forbidden> extends never ? true : false = true;
const stackArgs: Extract<keyof StackValidationArgs, Forbidden> extends never ? true : false = true;
const policyResource: Extract<keyof PolicyResource, Forbidden> extends never ? true : false = true;

it("@pulumi/policy's validation arguments have no old state, id or operation either", () => {
  expect([resourceArgs, stackArgs, policyResource]).toEqual([true, true, true]);
});
