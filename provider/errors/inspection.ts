/**
 * How an error of the family looks when inspected: its stack, its fields, then its causes, indented.
 * Written out because Node 20.20's coloured inspection of an error (`markNodeModules`) never ends on a
 * stack line with a file right under a scoped package folder (`node_modules/@pulumi/output.ts`, where
 * the Pulumi SDK's source maps place a read failing inside an `Output`): it grows a string until
 * "Invalid string length" seconds later. So no error object is handed to `util.inspect` here.
 */
import { inspect, type InspectOptions } from "node:util";

/** Causes shown below an error; deeper ones are left out. */
const MAX_CAUSES = 3;
const SKIPPED = new Set(["name", "message", "stack", "cause"]);

/** Own enumerable fields, without promises and functions (the Pulumi runtime adds `promise`); nested errors as text. */
function fieldsOf(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (SKIPPED.has(key) || value instanceof Promise || typeof value === "function") continue;
    fields[key] = value instanceof Error ? `${value.name}: ${value.message}` : value;
  }
  return fields;
}

/** Its stack (else `name: message`), a line of its fields, and its cause as `[cause]: ...`, indented. */
export function describeError(error: Error, options: InspectOptions = {}, level = 0): string {
  const head = typeof error.stack === "string" && error.stack !== "" ? error.stack : `${error.name}: ${error.message}`;
  const parts = [head];
  const fields = fieldsOf(error);
  if (Object.keys(fields).length > 0) parts.push(inspect(fields, { ...options, depth: 2, breakLength: Infinity }));
  const cause: unknown = error.cause;
  if (cause !== undefined) {
    const text =
      cause instanceof Error
        ? level < MAX_CAUSES
          ? describeError(cause, options, level + 1)
          : `${cause.name}: ${cause.message}`
        : inspect(cause, { ...options, depth: 1 });
    parts.push(`[cause]: ${text.split("\n").join("\n  ")}`);
  }
  return parts.join("\n");
}
