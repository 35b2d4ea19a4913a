/** zod issues -> check failures in SDK names; issues caused by unknown values (preview) are dropped. */
import type { z } from "zod";
import type { CheckFailure } from "../lifecycle/contract";
import { formatPropertyPath, valueAtPath } from "./propertyPath";
import { containsUnknown, isUnknown } from "./unknowns";

type Issue = z.core.$ZodIssue;

/** For "got ..." in reasons. */
function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value as number | boolean | bigint | symbol | undefined)}`;
}

/** True when the issue's path runs through an unknown value or points at a value that holds one. */
function causedByUnknown(inputs: unknown, path: readonly PropertyKey[]): boolean {
  for (let depth = 0; depth < path.length; depth++) {
    if (isUnknown(valueAtPath(inputs, path.slice(0, depth)))) return true;
  }
  return containsUnknown(valueAtPath(inputs, path));
}

/** The reason, rewritten where zod's text is written for developers. */
function reasonOf(issue: Issue, inputs: unknown): string {
  const value = valueAtPath(inputs, issue.path as PropertyKey[]);
  // A missing value fails a type check (or every option of a union): say what is wrong.
  if (value === undefined && (issue.code === "invalid_type" || issue.code === "invalid_union")) return "is required";
  switch (issue.code) {
    case "invalid_type":
      return `must be ${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}, got ${describeType(value)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${describeType(value)}`;
    case "invalid_key":
      // zod says only "Invalid key in record"; the key schema's message says what a key must look like.
      return issue.issues[0]?.message ?? issue.message;
    default:
      return issue.message;
  }
}

/** The issues of a failed `safeParse` of `inputs` as check failures, one per unrecognized key. */
export function toCheckFailures(issues: readonly Issue[], inputs: unknown, allowedKeys: readonly string[]): CheckFailure[] {
  return issues.flatMap((issue) => {
    const path = issue.path as PropertyKey[];
    if (issue.code === "unrecognized_keys") {
      // `allowedKeys` are the top level's: listed only there.
      const reason = path.length === 0 ? `is not a known property; allowed here: ${allowedKeys.join(", ")}` : "is not a known property";
      return issue.keys.map((key) => ({ property: formatPropertyPath([...path, key]), reason }));
    }
    return causedByUnknown(inputs, path) ? [] : [{ property: formatPropertyPath(path), reason: reasonOf(issue, inputs) }];
  });
}
