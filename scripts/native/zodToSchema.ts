/**
 * Pulumi schema types from the zod schemas the provider validates and parses with: the structure of
 * the native schema is the catalog's and the resources' own (provider/faces/native/provider.ts),
 * never a second hand-written copy.
 *
 * - Wire schemas (snake_case) are read with SDK names, as `toSdk` maps them: fields of declared
 *   objects in camelCase, keys of `z.record(...)` maps kept (they are data).
 * - A transform has no schema for its output: `side: "input"` describes what the provider accepts
 *   (the transform's input), `side: "output"` what it keeps, for the transforms listed in
 *   `outputsOfTransforms` (an id read as a string or an integer is kept as a string).
 * - Each declared object becomes a named type in `types`, named after where it is first met
 *   (`ZoneTargetingCountries`); the same zod object met again (or recursively, through `z.lazy`)
 *   refers to that type. "The same" is by definition, not by instance: `.describe()` returns a copy
 *   that shares its original's definition, so a described field is still the object it copies.
 */
import { z } from "zod";
import { snakeToCamel } from "../../provider/wire/casing";
import { zodDef, type ZodDef } from "../../provider/wire/zodDef";

/** A Pulumi schema type reference or primitive. */
export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
}

/** A property of an object type, resource or function. */
export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
  deprecationMessage?: string;
}

/** An object type of the schema's `types`. */
export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** Where a walk is, and what it may look up. */
export interface WalkOptions {
  readonly side: "input" | "output";
  /** Object field names are wire names (snake_case) to be read in SDK names. */
  readonly wireNames: boolean;
  /** The type-name prefix of objects met on this walk (`Zone`, `BidModifier`). */
  readonly typePrefix: string;
  /** Description of the property at a dotted path of SDK names, whose schema is `schema`. */
  readonly describe: (path: string, schema: z.ZodType) => string | undefined;
}

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"]);

/**
 * The description a schema carries (`.describe()` / `.meta({ description })`), its own or, through
 * wrappers that carry none (`.optional()`, `.partial()`), the schema it wraps.
 */
export function descriptionOf(schema: z.ZodType): string | undefined {
  const own = z.globalRegistry.get(schema)?.description;
  if (own !== undefined) return own;
  const def = zodDef(schema);
  return WRAPPERS.has(def.type) ? descriptionOf(def.innerType!) : undefined;
}

/** What a transform keeps, by the transform's schema object (identity). */
export type TransformOutputs = ReadonlyMap<z.ZodType, TypeSpec>;

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** Builds the `types` of a schema while walking zod schemas into property specs. */
export class SchemaTypes {
  readonly types: Record<string, ObjectTypeSpec> = {};
  /** Type names by the definition of the schema they were made from (see the module's header). */
  private readonly named = new Map<ZodDef, string>();
  private readonly transformOutputs: ReadonlyMap<ZodDef, TypeSpec>;

  constructor(
    private readonly packageName: string,
    transformOutputs: TransformOutputs,
  ) {
    this.transformOutputs = new Map([...transformOutputs].map(([schema, spec]) => [zodDef(schema), spec]));
  }

  /** True when `schema` (with its wrappers) accepts `undefined`: an optional property. */
  isOptional(schema: z.ZodType): boolean {
    const def = zodDef(schema);
    switch (def.type) {
      case "optional":
      case "default":
      case "prefault":
        return true;
      case "nullable":
      case "readonly":
      case "catch":
        return this.isOptional(def.innerType!);
      case "pipe":
        return this.isOptional(def.in!);
      default:
        return false;
    }
  }

  /** The properties of a zod object's shape, and which are required. */
  objectProperties(shape: Record<string, z.ZodType>, options: WalkOptions, path: string): Omit<ObjectTypeSpec, "type"> {
    const properties: Record<string, PropertySpec> = {};
    const required: string[] = [];
    for (const [field, schema] of Object.entries(shape)) {
      const name = options.wireNames ? snakeToCamel(field) : field;
      const at = path ? `${path}.${name}` : name;
      const spec: PropertySpec = { ...this.typeOf(schema, options, at) };
      const description = options.describe(at, schema);
      if (description) spec.description = description;
      properties[name] = spec;
      if (!this.isOptional(schema)) required.push(name);
    }
    return required.length > 0 ? { properties, required } : { properties };
  }

  /** The schema type of a zod schema met at `path`. */
  typeOf(schema: z.ZodType, options: WalkOptions, path: string): TypeSpec {
    const known = this.transformOutputs.get(zodDef(schema));
    if (known && options.side === "output") return known;
    const def = zodDef(schema);
    switch (def.type) {
      case "optional":
      case "nullable":
      case "default":
      case "prefault":
      case "nonoptional":
      case "readonly":
      case "catch":
        return this.typeOf(def.innerType!, options, path);
      case "pipe":
        return zodDef(def.out!).type === "transform"
          ? this.typeOf(def.in!, options, path)
          : this.typeOf(options.side === "input" ? def.in! : def.out!, options, path);
      case "lazy":
        return this.objectRef(schema, () => def.getter!(), options, path);
      case "string":
      case "enum":
        return { type: "string" };
      case "literal":
        return { type: typeof def.values?.[0] === "number" ? "number" : typeof def.values?.[0] === "boolean" ? "boolean" : "string" };
      case "number":
        return { type: (schema as unknown as { format?: string }).format?.includes("int") ? "integer" : "number" };
      case "boolean":
        return { type: "boolean" };
      case "array":
        return { type: "array", items: this.typeOf(def.element!, options, path) };
      case "record":
        return { type: "object", additionalProperties: this.typeOf(def.valueType!, options, path) };
      case "object":
        return this.objectRef(schema, () => schema, options, path);
      case "union": {
        const specs = def.options!.map((o) => this.typeOf(o, options, path));
        const distinct = [...new Map(specs.map((s) => [JSON.stringify(s), s])).values()];
        return distinct.length === 1 ? distinct[0]! : { oneOf: distinct };
      }
      default:
        // `z.unknown()` and anything without a structure the schema language has.
        return { $ref: "pulumi.json#/Any" };
    }
  }

  /** A reference to the named type of an object schema, defining it the first time. */
  private objectRef(key: z.ZodType, resolve: () => z.ZodType, options: WalkOptions, path: string): TypeSpec {
    let name = this.named.get(zodDef(key));
    if (name === undefined) {
      const object = this.structural(resolve());
      name = this.named.get(zodDef(object));
      if (name === undefined) {
        name = this.uniqueName(options.typePrefix + path.split(".").map(pascal).join(""));
        this.named.set(zodDef(key), name);
        this.named.set(zodDef(object), name);
        const token = `${this.packageName}:index:${name}`;
        this.types[token] = { type: "object", properties: {} };
        const def = zodDef(object);
        if (def.type !== "object") throw new Error(`${path}: expected an object schema, found ${def.type}`);
        const { properties, required } = this.objectProperties(def.shape!, options, path);
        this.types[token] = { type: "object", properties, ...(required ? { required } : {}) };
      } else {
        this.named.set(zodDef(key), name);
      }
    }
    return { $ref: `#/types/${this.packageName}:index:${name}` };
  }

  private structural(schema: z.ZodType): z.ZodType {
    const def = zodDef(schema);
    if (def.type === "lazy") return this.structural(def.getter!());
    if (["optional", "nullable", "default", "readonly", "catch"].includes(def.type)) return this.structural(def.innerType!);
    return schema;
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let n = 2; `${this.packageName}:index:${name}` in this.types; n++) name = `${base}${n}`;
    return name;
  }
}
