/**
 * One definition per kind, from which the check schema, diff rules, native schema and SDK classes derive,
 * so nothing about a field is written twice. Descriptions are markdown for users; spec citations and
 * decisions stay in `//` comments beside them.
 */
import { z } from "zod";
import { EMPTY_PATCH_MESSAGE, type OperationName, type PostOperationName, hasAnyField } from "../../catalog";
import type { ResourceKind } from "../kinds";
import type { DiffRules, FieldRule } from "./diff";

/** What a user reads about one field, in the program's arguments and in the state. */
export interface FieldDocs {
  readonly description: string;
  /** `description` when omitted. */
  readonly stateDescription?: string;
}

/** An object a field holds (a map's values, a nested object): its SDK type name and docs. */
export interface ObjectDocs extends FieldDocs {
  /** The state's type name; the arguments' type is `<name>Args`. */
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldDocs>>;
}

export interface InputField extends FieldDocs {
  readonly schema: z.ZodType;
  /** How `diff` compares it; without one it is not compared (it matters only to `create`). */
  readonly diff?: FieldRule;
  /** A TypeScript type the SDK names instead of spelling the schema (`PricingModel`), and its module. */
  readonly sdkType?: { readonly name: string; readonly module: string };
  /** The object the field holds, or whose map values it holds. */
  readonly object?: ObjectDocs;
  /** Set: the SDK marks it `@deprecated`. */
  readonly deprecated?: string;
  /** Required to create the object, optional once it exists (an imported object the API cannot fill in). */
  readonly requiredOnlyToCreate?: boolean;
  /** What the native face adds to the description. */
  readonly nativeNote?: string;
}

/** A field the platform adds to the state, by SDK name, with its wire schema. */
export interface StateField {
  readonly schema: z.ZodType;
  readonly description: string;
}

/** How a create adopts an existing object (../lifecycle/adoptionNotice.ts, sdk/resources/importOption.ts). */
export type Adoption =
  | {
      /** An optional `adoptId` input names the object to take over. */
      readonly by: "adoptId";
      /** What adopting checks or trusts, for the preview's notice. */
      readonly notice: string;
      /** What the import option did, after "was taken as adoptId: the <noun> ". */
      readonly importEffect: string;
    }
  | {
      readonly by: "ids";
      /** The input fields that name the object; its id is their values joined by `/`. */
      readonly ids: readonly string[];
      /** The operation that sets the declared fields on the adopted object. */
      readonly request: OperationName;
    };

type Fields = Readonly<Record<string, InputField>>;
type StateFields = Readonly<Record<string, StateField>>;

/** Everything about one resource kind except its lifecycle's code. */
export interface ResourceDefinitionSpec<F extends Fields, S extends StateFields = StateFields> {
  readonly kind: ResourceKind;
  /** The kind's object in messages: `bid strategy`, `campaign group`; its last word alone where the kind is named beside it. */
  readonly noun: string;
  readonly adoption: Adoption;
  /** Markdown; first line a summary. */
  readonly description: string;
  /** The SDK arguments' own description (what holds for every field). */
  readonly argsDescription: string;
  /** What the SDK's constructor documents about its parameters. */
  readonly constructorDocs: { readonly name: string; readonly args: string; readonly opts: string };
  /** The POST that makes a new object: its creates are journaled and the SDK sends the resource's identity. */
  readonly create?: PostOperationName;
  readonly fields: F;
  readonly state?: S;
  /** Fields of which a program must set one (for the PATCH that creates and updates). */
  readonly atLeastOneOf?: readonly (keyof F & string)[];
}

type Shape<F extends Fields> = { [K in keyof F]: F[K]["schema"] };

export interface ResourceDefinition<F extends Fields, S extends StateFields = StateFields> extends ResourceDefinitionSpec<F, S> {
  readonly inputs: z.ZodObject<Shape<F>, z.core.$strict>;
  /** `inputs` with the `requiredOnlyToCreate` fields optional: the check of an object that exists. */
  readonly existingInputs: z.ZodObject<z.core.$ZodLooseShape, z.core.$strict>;
  /** The compared fields and their rules, in field order. */
  readonly diff: DiffRules;
}

/** Derives the input schemas and diff rules of `spec`. */
export function defineResource<const F extends Fields, const S extends StateFields = Readonly<Record<string, never>>>(
  spec: ResourceDefinitionSpec<F, S>,
): ResourceDefinition<F, S> {
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

/** A constructor's `opts` doc, given what its `import` may be. */
export const optsDoc = (importing: string): string =>
  `resource options; \`customTimeouts\` has no effect on dynamic resources, and ${importing} (Pulumi's own import fails for dynamic resources).`;

/** The state fields the platform adds, as the state holds them (absent until the platform answered). */
export type StateOutputs<S extends StateFields> = { -readonly [K in keyof S]?: z.output<S[K]["schema"]> };

export type AnyResourceDefinition = ResourceDefinition<Fields>;

/** The last word of a kind's noun (`group` of `campaign group`). */
export const shortNoun = (definition: Pick<AnyResourceDefinition, "noun">): string => definition.noun.split(" ").at(-1)!;
