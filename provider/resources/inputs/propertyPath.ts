/** Property paths as Pulumi shows them in a check failure: `targeting.countries.items[0]`, `settings.image["pt-BR"]`. */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The empty path is the empty string (the resource as a whole). */
export function formatPropertyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    const key = String(segment);
    if (typeof segment === "number") out += `[${segment}]`;
    else if (IDENTIFIER.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

/** The value at `path` from `root`, or undefined when the path leaves the value. */
export function valueAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
