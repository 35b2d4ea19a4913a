/**
 * How an error of the family looks when inspected (`console.log(error)`, `util.inspect`, and the
 * Pulumi runtime, which inspects every uncaught error it reports): its stack, its fields, then its
 * causes the same way, indented.
 *
 * Written out rather than left to `util.inspect` because Node's coloured inspection of an error
 * (Node 20.20, `markNodeModules`) never ends on a stack line with a file right under a scoped
 * package folder, `node_modules/@scope/file.ts`: it looks for the package's closing `/`, finds
 * none, and starts over from the same place, growing a string until it fails with "Invalid string
 * length" many seconds later. A read that fails inside an `Output` has such a line: the Pulumi SDK's
 * source maps place `output.ts` at `node_modules/@pulumi/output.ts`. Here no error object, ours or
 * a cause, is handed to `util.inspect`; only plain field values are.
 */
import { inspect, type InspectOptions } from "node:util";

/** Causes shown below an error; deeper ones are left out. */
const MAX_CAUSES = 3;

/** Fields that say nothing the stack does not, or that are not the error's data. */
const SKIPPED = new Set(["name", "message", "stack", "cause"]);

/**
 * Own enumerable fields of `error`, without promises and functions (the Pulumi runtime adds the
 * rejected promise an error came through as `promise`) or nested errors (shown as their text).
 */
function fieldsOf(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (SKIPPED.has(key) || value instanceof Promise || typeof value === "function") continue;
    fields[key] = value instanceof Error ? `${value.name}: ${value.message}` : value;
  }
  return fields;
}

/** `text` with every line after the first indented by `prefix`. */
function indentRest(text: string, prefix: string): string {
  return text.split("\n").join(`\n${prefix}`);
}

/**
 * `error` as text: its stack (or `name: message` without one), a line of its fields when it has
 * any, and its cause as `[cause]: ...`, each cause indented two more spaces.
 */
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
    parts.push(`[cause]: ${indentRest(text, "  ")}`);
  }
  return parts.join("\n");
}
