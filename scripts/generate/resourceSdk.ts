/**
 * The dynamic SDK's resource classes, `sdk/resources/<kind>.ts`, generated from the kinds'
 * definitions (`provider/resources/<kind>/definition.ts`): the `<Kind>Args` interface, the types of
 * the objects a field holds, and the class with its outputs and constructor, each with the
 * definition's descriptions as JSDoc, which is what a program's editor shows.
 *
 * The fields' TypeScript types are read from the same schema walk as the native schema's
 * (`../native/zodToSchema.ts`), so both faces type a field alike; a field whose type the catalog
 * names (`PricingModel`) says so in its definition. What every class shares stays hand-written
 * beside them (`accountInput.ts`, `importOption.ts`, `providerShim.ts`, `resourceIdentity.ts`).
 */
import type { z } from "zod";
import type { AnyResourceDefinition, FieldDocs, InputField } from "../../provider/resources/inputs/definition";
import { RESOURCE_DEFINITIONS } from "../../provider/resources/definitions";
import { RESOURCE_KINDS } from "../../provider/resources/kinds";
import { PACKAGE_NAME } from "../../provider/faces/native/tokens";
import { zodDef } from "../../provider/wire/zodDef";
import { TRANSFORM_OUTPUTS } from "../native/buildSchema";
import { SchemaTypes, type ObjectTypeSpec, type TypeSpec } from "../native/zodToSchema";
import { GENERATED_MARK, type Generator } from "./generatedFile";
import { formatted } from "./formatted";
import { jsdoc } from "./jsdoc";
import { arrayType, recordType, scalarType, unionType } from "./tsTypes";

type Side = "input" | "output";

/** Where the classes go. */
export const RESOURCE_SDK_DIR = "sdk/resources";

/** The JSDoc of the `account` argument every class shares (`./accountInput.ts` builds the property). */
const ACCOUNT_DOC =
  "The platform account the object belongs to (`new Account({ baseUrl, token })`); the stack config or the " +
  "environment when omitted. Moving the resource to another account replaces it.";

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

const stateText = (docs: FieldDocs) => docs.stateDescription ?? docs.description;

/** True when the state may lack the field: optional without a default. */
function absentInState(schema: z.ZodType): boolean {
  const def = zodDef(schema);
  if (def.type === "optional") return true;
  if (def.type === "nullable" || def.type === "readonly") return absentInState(def.innerType!);
  return false;
}

/** Builds one kind's file. */
class KindFile {
  private readonly types = new SchemaTypes(PACKAGE_NAME, TRANSFORM_OUTPUTS);
  /** Declarations of the objects fields hold, in the order met. */
  private readonly objects: string[] = [];
  /** Catalog type names to import, by module. */
  private readonly imports = new Map<string, Set<string>>();

  constructor(private readonly definition: AnyResourceDefinition) {}

  /** The TypeScript text of a schema type; inputs wrap every value a program may compute in `pulumi.Input`. */
  private ts(spec: TypeSpec, side: Side, field: InputField, at: string): string {
    const value = (inner: TypeSpec) =>
      side === "input" ? `pulumi.Input<${this.ts(inner, side, field, at)}>` : this.ts(inner, side, field, at);
    if (spec.$ref === "pulumi.json#/Any") return "unknown";
    if (spec.$ref !== undefined) return this.object(spec.$ref, side, field, at);
    if (spec.oneOf !== undefined) return unionType(spec.oneOf.map((s) => this.ts(s, side, field, at)));
    switch (spec.type) {
      case "string":
      case "number":
      case "integer":
      case "boolean":
        return scalarType(spec.type);
      case "array":
        return arrayType(value(spec.items!));
      case "object":
        return recordType(spec.additionalProperties ? value(spec.additionalProperties) : "unknown");
      default:
        throw new Error(`${this.definition.kind}.${at}: no TypeScript type for ${JSON.stringify(spec)}`);
    }
  }

  /** The name of the SDK type of the object `ref`, declaring it (both sides) the first time. */
  private object(ref: string, side: Side, field: InputField, at: string): string {
    const docs = field.object;
    if (docs === undefined) throw new Error(`${this.definition.kind}.${at} holds an object: its definition must name it (\`object\`)`);
    const names = { input: `${docs.name}Args`, output: docs.name };
    if (!this.objects.some((text) => text.includes(`export interface ${names.input} {`))) {
      const spec = this.types.types[ref.replace("#/types/", "")] as ObjectTypeSpec;
      for (const s of ["input", "output"] as const) {
        const required = new Set(spec.required ?? []);
        let text = jsdoc(s === "input" ? docs.description : stateText(docs));
        text += `export interface ${names[s]} {\n`;
        for (const [name, property] of Object.entries(spec.properties)) {
          const inner = docs.fields[name];
          if (inner === undefined) throw new Error(`${this.definition.kind}.${at}.${name} has no description in the definition`);
          const type = this.ts(property, s, field, `${at}.${name}`);
          text += jsdoc(s === "input" ? inner.description : stateText(inner), { indent: "  " });
          text += `  ${name}${required.has(name) ? "" : "?"}: ${s === "input" ? `pulumi.Input<${type}>` : type};\n`;
        }
        this.objects.push(`${text}}\n`);
      }
    }
    return names[side];
  }

  /** A field's type, without `pulumi.Input`/`Output` and `undefined`. */
  private fieldType(name: string, schema: z.ZodType, side: Side, field: InputField): string {
    if (field.sdkType !== undefined) {
      const names = this.imports.get(field.sdkType.module) ?? new Set<string>();
      names.add(field.sdkType.name);
      this.imports.set(field.sdkType.module, names);
      return field.sdkType.name;
    }
    const walk = { side, wireNames: false, typePrefix: this.definition.kind, describe: () => undefined };
    return this.ts(this.types.typeOf(schema, walk, name), side, field, name);
  }

  async file(): Promise<{ path: string; content: string }> {
    const { kind, fields, state = {} } = this.definition;
    // A kind created by POST is journaled, keyed by the resource's URN, which the SDK sends.
    const journaled = this.definition.create !== undefined;
    const source = `provider/resources/${lowerFirst(kind)}/definition.ts`;
    const path = `${RESOURCE_SDK_DIR}/${lowerFirst(kind)}.ts`;

    let args = jsdoc(this.definition.argsDescription) + `export interface ${kind}Args {\n`;
    let outputs = "";
    let props = "";
    for (const [name, field] of Object.entries<InputField>(fields)) {
      const tags = [
        ...(field.diff?.absentMeans !== undefined ? [`@default ${JSON.stringify(field.diff.absentMeans)}`] : []),
        ...(field.deprecated !== undefined ? [`@deprecated ${field.deprecated}`] : []),
      ];
      const optional = this.types.isOptional(field.schema);
      args += jsdoc(field.description, { indent: "  ", tags });
      args += `  ${name}${optional ? "?" : ""}: pulumi.Input<${this.fieldType(name, field.schema, "input", field)}>;\n`;
      const output = this.fieldType(name, field.schema, "output", field);
      outputs += jsdoc(stateText(field), { indent: "  ", tags: field.deprecated !== undefined ? [`@deprecated ${field.deprecated}`] : [] });
      outputs += `  declare public readonly ${name}: pulumi.Output<${output}${absentInState(field.schema) ? " | undefined" : ""}>;\n`;
      props += `${name}: imported.args.${name},\n`;
    }
    for (const [name, field] of Object.entries(state)) {
      const walk = { side: "output" as const, wireNames: false, typePrefix: kind, describe: () => undefined };
      const type = this.ts(this.types.typeOf(field.schema, walk, name), "output", { ...field, schema: field.schema }, name);
      outputs += jsdoc(field.description, { indent: "  " });
      outputs += `  declare public readonly ${name}: pulumi.Output<${type} | undefined>;\n`;
      // Declared as outputs, so the engine reports them (the platform fills them in).
      props += `${name}: undefined,\n`;
    }
    args += jsdoc(ACCOUNT_DOC, { indent: "  " }) + "  account?: Account;\n}\n";

    const docs = this.definition.constructorDocs;
    const constructorDoc = jsdoc("", {
      indent: "  ",
      tags: [`@param name ${docs.name}`, `@param args ${docs.args}`, `@param opts ${docs.opts}`],
    });
    const imports = [
      `import * as pulumi from "@pulumi/pulumi";`,
      ...[...this.imports].map(([module, names]) => `import type { ${[...names].sort().join(", ")} } from "../../${module}";`),
      `import { RESOURCE_MODULE } from "../../provider/resources/kinds";`,
      `import type { Account } from "../account";`,
      `import { accountInput, accountOptions } from "./accountInput";`,
      `import { importAsAdoption, logImportAsAdoption } from "./importOption";`,
      `import { PROVIDER_SHIMS } from "./providerShim";`,
      ...(journaled ? [`import { acknowledgeCreated, identityInputs } from "./resourceIdentity";`] : []),
    ];
    const text =
      `${GENERATED_MARK} from ${source}; edit that, not this file.\n` +
      `${imports.join("\n")}\n\n` +
      this.objects.join("\n") +
      "\n" +
      args +
      "\n" +
      jsdoc(this.definition.description) +
      `export class ${kind} extends pulumi.dynamic.Resource {\n` +
      outputs +
      "\n" +
      constructorDoc +
      `  constructor(name: string, args: ${kind}Args, opts?: pulumi.CustomResourceOptions) {\n` +
      `    const imported = importAsAdoption("${kind}", name, args, opts);\n` +
      `    super(PROVIDER_SHIMS.${kind}, name, {\n${props}` +
      `...accountInput(imported.args.account),\n` +
      (journaled ? `...identityInputs("${kind}", name, imported.opts),\n` : "") +
      `}, accountOptions(imported.args.account, imported.opts), RESOURCE_MODULE, "${kind}");\n` +
      `    logImportAsAdoption(this, imported);\n` +
      (journaled ? `    acknowledgeCreated(this);\n` : "") +
      `  }\n}\n`;
    return formatted(path, text);
  }
}

/** `sdk/resources/index.ts`: every kind's file, re-exported. */
function indexFile() {
  const text =
    `${GENERATED_MARK} from provider/resources/kinds.ts; edit that, not this file.\n` +
    jsdoc("The dynamic resources, exported flat: a program imports every class from the package root.") +
    RESOURCE_KINDS.map((kind) => `export * from "./${lowerFirst(kind)}";\n`).join("");
  return formatted(`${RESOURCE_SDK_DIR}/index.ts`, text);
}

/** `sdk/resources/<kind>.ts` of every kind, and the index that exports them. */
export const resourceSdk: Generator = {
  name: "SDK resource classes",
  sharedDirectories: [RESOURCE_SDK_DIR],
  async files() {
    return Promise.all([...RESOURCE_KINDS.map((kind) => new KindFile(RESOURCE_DEFINITIONS[kind]).file()), indexFile()]);
  },
};
