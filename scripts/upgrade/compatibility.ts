/**
 * What counts as a breaking change between a release and the current build (docs/development.md,
 * "Releases"), for both faces: the native schema (`schema.json`) and the dynamic SDK's surface
 * (sdkSurface.ts). Each function lists the breaking changes as lines a reviewer reads
 * ("resource adplatform:index:BidStrategy: input `name` removed"); an empty list means a program
 * written against the release still compiles, and a stack it made still previews the same.
 *
 * The schema rules are those of `pulumi/schema-tools compare`, with replace-on-change added: a
 * property that starts (or stops) replacing its resource changes what every existing stack's next
 * edit does, and here a replacement is a duplicate on a platform that cannot delete.
 */
import { parseKey, parseParameter, type SdkSurface, type SurfaceEntry, type SurfaceSignature } from "./sdkSurface";

/** A schema property as far as compatibility goes. */
interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  oneOf?: PropertySpec[];
  willReplaceOnChanges?: boolean;
}

interface ObjectSpec {
  properties?: Record<string, PropertySpec>;
  required?: string[];
}

interface ResourceSpec extends ObjectSpec {
  inputProperties?: Record<string, PropertySpec>;
  requiredInputs?: string[];
}

interface FunctionSpec {
  inputs?: ObjectSpec;
  outputs?: ObjectSpec;
}

/** The parts of a Pulumi package schema the rules read. */
export interface PackageSchema {
  version?: string;
  config?: { variables?: Record<string, PropertySpec>; defaults?: string[] };
  provider?: ResourceSpec;
  resources?: Record<string, ResourceSpec>;
  functions?: Record<string, FunctionSpec>;
  types?: Record<string, ObjectSpec & { type?: string; enum?: { value: unknown }[] }>;
}

/** A type as one comparable string: its type or reference, with its items, map values and alternatives. */
function typeOf(spec: PropertySpec | undefined): string {
  if (spec === undefined) return "none";
  if (spec.oneOf !== undefined) return `oneOf(${spec.oneOf.map(typeOf).sort().join(" | ")})`;
  const base = spec.$ref ?? spec.type ?? "any";
  if (spec.items !== undefined) return `${base}<${typeOf(spec.items)}>`;
  if (spec.additionalProperties !== undefined) return `${base}<string, ${typeOf(spec.additionalProperties)}>`;
  return base;
}

const keys = <T>(record: Record<string, T> | undefined): string[] => Object.keys(record ?? {}).sort();

/**
 * Properties of one object, old against new. `input`: a program passes them in (a removed one or a
 * newly required one breaks the program); `output`: a program reads them (a removed one or one no
 * longer always there breaks it). Object types may be either, so they get both rules.
 */
function compareProperties(
  where: string,
  role: { input: boolean; output: boolean; replaces: boolean },
  old: { properties?: Record<string, PropertySpec>; required?: string[] },
  cur: { properties?: Record<string, PropertySpec>; required?: string[] },
  noun: string,
): string[] {
  const found: string[] = [];
  for (const name of keys(old.properties)) {
    const before = old.properties![name]!;
    const after = cur.properties?.[name];
    if (after === undefined) {
      found.push(`${where}: ${noun} \`${name}\` removed`);
      continue;
    }
    if (typeOf(before) !== typeOf(after))
      found.push(`${where}: ${noun} \`${name}\` changed type from ${typeOf(before)} to ${typeOf(after)}`);
    if (role.replaces && (before.willReplaceOnChanges === true) !== (after.willReplaceOnChanges === true)) {
      found.push(
        `${where}: ${noun} \`${name}\` ${after.willReplaceOnChanges ? "now replaces" : "no longer replaces"} the resource when it changes`,
      );
    }
  }
  const oldRequired = new Set(old.required ?? []);
  const newRequired = new Set(cur.required ?? []);
  if (role.input) {
    for (const name of [...newRequired].sort()) if (!oldRequired.has(name)) found.push(`${where}: ${noun} \`${name}\` is newly required`);
  }
  if (role.output) {
    for (const name of [...oldRequired].sort()) {
      if (!newRequired.has(name) && cur.properties?.[name] !== undefined)
        found.push(`${where}: ${noun} \`${name}\` is no longer always set`);
    }
  }
  return found;
}

/** The breaking changes from schema `old` to schema `cur`. */
export function schemaBreakingChanges(old: PackageSchema, cur: PackageSchema): string[] {
  const found: string[] = [];
  const input = { input: true, output: false, replaces: true };
  const output = { input: false, output: true, replaces: false };

  found.push(
    ...compareProperties(
      "config",
      { input: true, output: false, replaces: false },
      { properties: old.config?.variables, required: old.config?.defaults },
      { properties: cur.config?.variables, required: cur.config?.defaults },
      "variable",
    ),
  );
  if (old.provider !== undefined) {
    const provider = cur.provider ?? {};
    found.push(
      ...compareProperties(
        "provider",
        input,
        { properties: old.provider.inputProperties, required: old.provider.requiredInputs },
        { properties: provider.inputProperties, required: provider.requiredInputs },
        "input",
      ),
    );
  }
  for (const token of keys(old.resources)) {
    const before = old.resources![token]!;
    const after = cur.resources?.[token];
    const where = `resource ${token}`;
    if (after === undefined) {
      found.push(`${where}: removed`);
      continue;
    }
    found.push(
      ...compareProperties(
        where,
        input,
        { properties: before.inputProperties, required: before.requiredInputs },
        { properties: after.inputProperties, required: after.requiredInputs },
        "input",
      ),
      ...compareProperties(where, output, before, after, "output"),
    );
  }
  for (const token of keys(old.functions)) {
    const before = old.functions![token]!;
    const after = cur.functions?.[token];
    const where = `function ${token}`;
    if (after === undefined) {
      found.push(`${where}: removed`);
      continue;
    }
    const hadArguments = keys(before.inputs?.properties).length > 0;
    const hasArguments = keys(after.inputs?.properties).length > 0;
    if (hadArguments !== hasArguments)
      found.push(`${where}: ${hasArguments ? "now takes" : "no longer takes"} arguments (its signature changed)`);
    found.push(
      ...compareProperties(where, { ...input, replaces: false }, before.inputs ?? {}, after.inputs ?? {}, "argument"),
      ...compareProperties(where, output, before.outputs ?? {}, after.outputs ?? {}, "result"),
    );
  }
  for (const token of keys(old.types)) {
    const before = old.types![token]!;
    const after = cur.types?.[token];
    const where = `type ${token}`;
    if (after === undefined) {
      found.push(`${where}: removed`);
      continue;
    }
    if ((before.type ?? "object") !== (after.type ?? "object"))
      found.push(`${where}: changed from ${before.type ?? "object"} to ${after.type ?? "object"}`);
    const values = new Set((after.enum ?? []).map((e) => JSON.stringify(e.value)));
    for (const value of before.enum ?? [])
      if (!values.has(JSON.stringify(value.value))) found.push(`${where}: enum value ${JSON.stringify(value.value)} removed`);
    found.push(...compareProperties(where, { input: true, output: true, replaces: false }, before, after, "property"));
  }
  return found;
}

/** The members of a union type's text, split at its top level (not inside brackets or a string). */
function unionMembers(type: string): string[] {
  const members: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < type.length; i += 1) {
    const c = type[i]!;
    if (quote !== undefined) {
      if (c === quote && type[i - 1] !== "\\") quote = undefined;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if ("(<[{".includes(c)) depth += 1;
    else if (")>]}".includes(c)) depth -= 1;
    else if (c === "|" && depth === 0) {
      members.push(type.slice(start, i).trim());
      start = i + 1;
    }
  }
  members.push(type.slice(start).trim());
  return members.filter((member) => member !== "");
}

/** Whether a parameter of type `now` takes every argument one of type `before` took: the same type, or a union holding each of its members. */
function accepts(now: string, before: string): boolean {
  if (now === before) return true;
  const taken = new Set(unionMembers(now));
  return unionMembers(before).every((member) => taken.has(member));
}

/** Signatures old against new: every old call must still type-check and return what it did. */
function compareSignatures(where: string, old: readonly SurfaceSignature[], cur: readonly SurfaceSignature[]): string[] {
  const found: string[] = [];
  old.forEach((before, index) => {
    const after = cur[index];
    const label = old.length > 1 ? `${where} (signature ${index + 1})` : where;
    if (after === undefined) {
      found.push(`${label}: signature removed`);
      return;
    }
    const beforeParameters = before.parameters.map(parseParameter);
    const afterParameters = after.parameters.map(parseParameter);
    beforeParameters.forEach((parameter, position) => {
      const now = afterParameters[position];
      if (now === undefined) found.push(`${label}: parameter \`${parameter.name}\` removed`);
      else if (!accepts(now.type, parameter.type))
        found.push(`${label}: parameter \`${parameter.name}\` changed type from ${parameter.type} to ${now.type}`);
      else if (parameter.optional && !now.optional) found.push(`${label}: parameter \`${parameter.name}\` is newly required`);
    });
    for (const extra of afterParameters.slice(beforeParameters.length)) {
      if (!extra.optional) found.push(`${label}: new required parameter \`${extra.name}\``);
    }
    if (before.returns !== after.returns) found.push(`${label}: returns ${after.returns} instead of ${before.returns}`);
  });
  return found;
}

/**
 * Whether a member was recorded without a type: one declared by its initializer (`readonly code =
 * "ADP_ERR_NOT_FOUND"`) has no type written, which the surface records as `any`. A program reading
 * such a member can only have relied on it being there.
 */
const untyped = (type: string) => type.replace(/^(static )?(readonly )?/, "") === "any";

/** Members old against new, by the role of their declaration. */
function compareMembers(where: string, old: SurfaceEntry, cur: SurfaceEntry): string[] {
  const found: string[] = [];
  const members = (entry: SurfaceEntry) =>
    new Map(Object.entries(entry.members ?? {}).map(([key, type]) => [parseKey(key).name, { ...parseKey(key), type }]));
  const before = members(old);
  const after = members(cur);
  const input = old.input === true || cur.input === true;
  for (const [name, member] of before) {
    const now = after.get(name);
    if (now === undefined) found.push(`${where}: member \`${name}\` removed`);
    else if (now.type !== member.type && !(untyped(member.type) && !input))
      found.push(`${where}: member \`${name}\` changed type from ${member.type} to ${now.type}`);
    else if (input && member.optional && !now.optional) found.push(`${where}: member \`${name}\` is newly required`);
    else if (!input && !member.optional && now.optional) found.push(`${where}: member \`${name}\` is no longer always set`);
  }
  if (input)
    for (const [name, member] of after) if (!before.has(name) && !member.optional) found.push(`${where}: new required member \`${name}\``);
  return found;
}

/** The breaking changes from SDK surface `old` to `cur`. */
export function surfaceBreakingChanges(old: SdkSurface, cur: SdkSurface): string[] {
  const found: string[] = [];
  for (const name of Object.keys(old).sort()) {
    const before = old[name]!;
    const after = cur[name];
    const where = `${before.kind} ${name}`;
    // A declaration only named by others may move or be renamed; what names it is compared instead.
    if (after === undefined) {
      if (!before.internal) found.push(`${where}: removed`);
      continue;
    }
    if (!before.internal && after.internal) found.push(`${where}: no longer exported`);
    if (after.kind !== before.kind) {
      found.push(`${where}: is now a ${after.kind}`);
      continue;
    }
    found.push(...compareMembers(where, before, after), ...compareSignatures(where, before.signatures ?? [], after.signatures ?? []));
    if (before.type !== after.type) found.push(`${where}: changed from ${before.type ?? "a union"} to ${after.type ?? "a union"}`);
    if (before.union !== undefined && after.union !== undefined) {
      for (const member of before.union) if (!after.union.includes(member)) found.push(`${where}: ${member} removed from the union`);
    }
  }
  return found;
}

/**
 * Whether `current` may break what `baseline` offered: a version npm's caret range of the baseline
 * does not accept (`^1.2.3` takes 1.x, `^0.2.3` takes 0.2.x, `^0.0.3` only 0.0.3), and is newer.
 * So the major is the first non-zero part: 0.1.0 may break in 0.2.0, 1.4.0 only in 2.0.0.
 */
export function breakingAllowed(baseline: string, current: string): boolean {
  const parse = (version: string) => {
    const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
    if (match === null) throw new Error(`not a semantic version: ${version}`);
    return [Number(match[1]), Number(match[2]), Number(match[3])] as const;
  };
  const [bMajor, bMinor, bPatch] = parse(baseline);
  const [cMajor, cMinor, cPatch] = parse(current);
  if (bMajor > 0) return cMajor > bMajor;
  if (bMinor > 0) return cMajor > 0 || cMinor > bMinor;
  return cMajor > 0 || cMinor > 0 || cPatch > bPatch;
}
