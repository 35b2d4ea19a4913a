/**
 * One definition per resource kind: each input field's schema, its user-facing description and its
 * diff rule, the fields the platform adds to the state, and the kind's own description. The checked
 * input schema and the diff rules are derived here; the native schema (scripts/native/buildSchema.ts)
 * and the dynamic SDK's classes (scripts/generate/resourceSdk.ts, `sdk/resources/<kind>.ts`) are
 * derived from the same definition, so nothing about a field is written twice.
 *
 * Descriptions are markdown for users (the SDK's JSDoc, the schema, the generated SDKs' docs): spec
 * citations and decisions stay in `//` comments beside them.
 */
import { z } from "zod";
import { EMPTY_PATCH_MESSAGE, type OperationName, type PostOperationName, hasAnyField } from "../../catalog";
import type { ResourceKind } from "../kinds";
import type { DiffRules, FieldRule } from "./diff";

/** A TypeScript type the SDK names instead of spelling the schema's structure (`PricingModel`). */
export interface SdkTypeName {
  readonly name: string;
  /** Repository-relative module (without extension) that exports it. */
  readonly module: string;
}

/** What a user reads about one field, in the program's arguments and in the state. */
export interface FieldDocs {
  /** The argument: what to set, what it means. */
  readonly description: string;
  /** The state's property; `description` when omitted. */
  readonly stateDescription?: string;
}

/** An object a field holds (a map's values, a nested object): its SDK type name and docs. */
export interface ObjectDocs extends FieldDocs {
  /** The state's type name; the arguments' type is `<name>Args`. */
  readonly name: string;
  /** The object's own fields, by SDK name. */
  readonly fields: Readonly<Record<string, FieldDocs>>;
}

/** One input field of a resource. */
export interface InputField extends FieldDocs {
  /** What a program may set (checked and normalised by `check`). */
  readonly schema: z.ZodType;
  /** How `diff` compares it; a field without one is not compared (it matters only to `create`). */
  readonly diff?: FieldRule;
  /** The SDK's name for the field's type, where it has one. */
  readonly sdkType?: SdkTypeName;
  /** The object the field holds, or whose map values it holds. */
  readonly object?: ObjectDocs;
  /** Why the field should no longer be used; set: the SDK marks it `@deprecated`. */
  readonly deprecated?: string;
  /**
   * Required to create the object, optional once it exists (an imported object whose state the API
   * cannot fill in); the `check` of an existing object accepts its absence.
   */
  readonly requiredOnlyToCreate?: boolean;
  /** What the native face adds to the description, where the two faces differ. */
  readonly nativeNote?: string;
}

/** A field the platform adds to the state (read from its answers), by SDK name. */
export interface StateField {
  /** The field's wire schema in the catalog's record. */
  readonly schema: z.ZodType;
  readonly description: string;
}

/** What the SDK's constructor documents about its parameters. */
export interface ConstructorDocs {
  /** `name`: the Pulumi resource name. */
  readonly name: string;
  readonly args: string;
  readonly opts: string;
}

/**
 * How a create takes an existing object over instead of making one: what the preview's notice
 * (../lifecycle/adoptionNotice.ts) and the SDK's `import` option (sdk/resources/importOption.ts) say and do.
 */
export type Adoption =
  | {
      /** An optional `adoptId` input names the object to take over; without it the create makes one. */
      readonly by: "adoptId";
      /** What adopting checks or trusts, for the preview's notice: `GET /v2/adex/groups/{id} checks that ...`. */
      readonly notice: string;
      /** What the import option did, after "was taken as adoptId: the <noun> ". */
      readonly importEffect: string;
    }
  | {
      /** The declared ids always name an existing object: every create takes it over. */
      readonly by: "ids";
      /** The input fields that name the object; its id is their values joined by `/`. */
      readonly ids: readonly string[];
      /** The operation that sets the declared fields on the adopted object; messages show its `requestLine`. */
      readonly request: OperationName;
    };

/** Everything about one resource kind except its lifecycle's code. */
export interface ResourceDefinitionSpec<
  F extends Readonly<Record<string, InputField>>,
  S extends Readonly<Record<string, StateField>> = Readonly<Record<string, StateField>>,
> {
  readonly kind: ResourceKind;
  /** The kind's object in messages: `bid strategy`, `campaign group`; its last word alone where the kind is named beside it. */
  readonly noun: string;
  readonly adoption: Adoption;
  /** What the resource is and how it behaves, for users (markdown; first line a summary). */
  readonly description: string;
  /** The SDK arguments' own description (what holds for every field). */
  readonly argsDescription: string;
  readonly constructorDocs: ConstructorDocs;
  /**
   * The POST that makes a new object, when the API can create the kind: then its creates are
   * journaled (../journal) and the SDK sends the resource's identity.
   */
  readonly create?: PostOperationName;
  readonly fields: F;
  readonly state?: S;
  /** Fields of which a program must set at least one (the PATCH that creates and updates needs one). */
  readonly atLeastOneOf?: readonly (keyof F & string)[];
}

type Shape<F extends Readonly<Record<string, InputField>>> = { [K in keyof F]: F[K]["schema"] };

/** A definition with what is derived from it. */
export interface ResourceDefinition<
  F extends Readonly<Record<string, InputField>>,
  S extends Readonly<Record<string, StateField>> = Readonly<Record<string, StateField>>,
> extends ResourceDefinitionSpec<F, S> {
  /** The strict schema `check` validates a program's inputs with. */
  readonly inputs: z.ZodObject<Shape<F>, z.core.$strict>;
  /** `inputs`, with the fields `requiredOnlyToCreate` optional: the check of an object that exists. */
  readonly existingInputs: z.ZodObject<z.core.$ZodLooseShape, z.core.$strict>;
  /** The compared fields and their rules, in field order. */
  readonly diff: DiffRules;
}

/** Derives the input schemas and diff rules of `spec`. */
export function defineResource<
  const F extends Readonly<Record<string, InputField>>,
  const S extends Readonly<Record<string, StateField>> = Readonly<Record<string, never>>,
>(spec: ResourceDefinitionSpec<F, S>): ResourceDefinition<F, S> {
  const shape = Object.fromEntries(Object.entries(spec.fields).map(([name, field]) => [name, field.schema])) as Shape<F>;
  const atLeastOne = <T extends z.ZodObject>(schema: T): T => {
    const rule = spec.atLeastOneOf;
    if (rule === undefined) return schema;
    const picked = (inputs: Record<string, unknown>) => Object.fromEntries(rule.map((field) => [field, inputs[field]]));
    return schema.refine((inputs: Record<string, unknown>) => hasAnyField(picked(inputs)), {
      message: `${EMPTY_PATCH_MESSAGE}: set at least one of ${rule.join(", ")}`,
    }) as unknown as T;
  };
  const inputs = atLeastOne(z.strictObject(shape));
  const relaxed = Object.fromEntries(
    Object.entries(spec.fields)
      .filter(([, field]) => field.requiredOnlyToCreate)
      .map(([name, field]) => [name, field.schema.optional()]),
  );
  const existingInputs = Object.keys(relaxed).length === 0 ? inputs : atLeastOne(z.strictObject(shape).extend(relaxed));
  const diff: Record<string, FieldRule> = {};
  for (const [name, field] of Object.entries(spec.fields)) if (field.diff !== undefined) diff[name] = field.diff;
  return { ...spec, inputs, existingInputs: existingInputs as ResourceDefinition<F, S>["existingInputs"], diff };
}

/** The state fields the platform adds, as the state holds them (absent until the platform answered). */
export type StateOutputs<S extends Readonly<Record<string, StateField>>> = { -readonly [K in keyof S]?: z.output<S[K]["schema"]> };

/** Any kind's definition (each has its own fields). */
export type AnyResourceDefinition = ResourceDefinition<Readonly<Record<string, InputField>>>;

/** The last word of a kind's noun (`group` of `campaign group`), where the kind is named beside it. */
export const shortNoun = (definition: Pick<AnyResourceDefinition, "noun">): string => definition.noun.split(" ").at(-1)!;
