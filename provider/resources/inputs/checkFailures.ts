/**
 * zod issues -> check failures: a property path in SDK (camelCase) names and a reason a user
 * understands. Issues caused by values the engine does not know yet (preview) are dropped:
 * those values are checked on the run that knows them.
 */
import type { z } from "zod";
import type { CheckFailure } from "../lifecycle/contract";
import { formatPropertyPath, valueAtPath } from "./propertyPath";
import { containsUnknown, isUnknown } from "./unknowns";

type Issue = z.core.$ZodIssue;

/** A short description of a value's type, for "got ..." in reasons. */
function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value as number | boolean | bigint | symbol | undefined)}`;
}

/**
 * True when the issue's path runs through a value the engine does not know yet (a whole object or
 * list unknown) or points at a value that holds one (a list with one unknown element).
 */
function causedByUnknown(inputs: unknown, path: readonly PropertyKey[]): boolean {
  for (let depth = 0; depth < path.length; depth++) {
    if (isUnknown(valueAtPath(inputs, path.slice(0, depth)))) return true;
  }
  return containsUnknown(valueAtPath(inputs, path));
}

/** The reason for one issue, rewritten where zod's default text is written for developers. */
function reasonOf(issue: Issue, inputs: unknown): string {
  const value = valueAtPath(inputs, issue.path as PropertyKey[]);
  // A missing value fails a type check (or every option of a union): say what is wrong.
  if (value === undefined && (issue.code === "invalid_type" || issue.code === "invalid_union")) return "is required";
  switch (issue.code) {
    case "invalid_type":
      return `must be ${article(issue.expected)}, got ${describeType(value)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${describeType(value)}`;
    case "invalid_key":
      // A record key (targeting dimension, language code) failed: zod's own text is only "Invalid key
      // in record"; the key schema's message says what a key must look like.
      return issue.issues[0]?.message ?? issue.message;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/**
 * Converts the issues of a failed `safeParse` of `inputs` into check failures. `unrecognized_keys`
 * becomes one failure per key, so each names its property.
 */
export function toCheckFailures(issues: readonly Issue[], inputs: unknown, allowedKeys: readonly string[]): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        // `allowedKeys` are the resource's own inputs: listed only for a key at the top level, since
        // inside a nested object (targeting.countries.x) they would name the wrong properties.
        failures.push({
          property: formatPropertyPath([...path, key]),
          reason: path.length === 0 ? `is not a known property; allowed here: ${allowedKeys.join(", ")}` : "is not a known property",
        });
      }
      continue;
    }
    if (causedByUnknown(inputs, path)) continue;
    failures.push({ property: formatPropertyPath(path), reason: reasonOf(issue, inputs) });
  }
  return failures;
}
