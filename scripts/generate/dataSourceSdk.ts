/**
 * The dynamic SDK's data sources, `sdk/dataSources/get*.ts`, generated from the rows of
 * `provider/dataSources/definitions.ts` and the record schemas of the catalog: the `GetXArgs` and
 * `GetXOutputArgs` interfaces, the result interfaces with the schemas' descriptions as JSDoc (what a
 * program's editor shows), and the `getX` / `getXOutput` functions over the hand-written engine
 * (`invoke.ts`, `accountArgument.ts`). A result type several data sources share goes to
 * `sdk/dataSources/shared.ts`.
 *
 * A result type is what the read returns: the record's output type with SDK (camelCase) names,
 * without the index signature of unknown fields (the tolerant reader keeps them at run time, but
 * they have no documented type).
 */
import type { z } from "zod";
import {
  AbTestConfig,
  ContainerItem,
  ContainerPrompt,
  Country,
  DisplaySettings,
  EmbeddedAccount,
  ExternalDemand,
  ExternalDemandSetting,
  FilterNode,
  Frequency,
  IntegrationAction,
  IntegrationActionProperty,
  IntegrationEvent,
  Localised,
  Macro,
  MacroRecord,
  Message,
  MessagingProviderSetting,
  OpItems,
  PushTaskAdex,
  PushTaskTargeting,
  ScrollAxis,
  Segment,
  SegmentTargeting,
  Trigger,
  ZoneCategoryTargeting,
  ZoneListTargeting,
  ZoneSimpleTargeting,
  ZoneTargeting,
  ZoneVersionedTargeting,
} from "../../provider/catalog";
import type { DataSource } from "../../provider/dataSources/dataSource";
import { DATA_SOURCES } from "../../provider/dataSources/definitions";
import { snakeToCamel } from "../../provider/wire/casing";
import { zodDef, type ZodDef } from "../../provider/wire/zodDef";
import { TRANSFORM_OUTPUTS } from "../native/buildSchema";
import { descriptionOf } from "../native/zodToSchema";
import { formatted } from "./formatted";
import { GENERATED_MARK, type Generator } from "./generatedFile";
import { jsdoc, jsdocLines, textWidth, wrap } from "./jsdoc";
import { arrayType, recordType, scalarType } from "./tsTypes";

const DIR = "sdk/dataSources";
const SHARED = "shared";
const HEADER =
  `${GENERATED_MARK} from provider/dataSources/definitions.ts and the catalog's record schemas ` +
  "(provider/catalog/schemas/); edit those, not this file.";

/**
 * The SDK's names of the catalog's object schemas (a record read through a single-record data source
 * is `Get<X>Result` and needs none). Types are matched by zod definition, which a described copy of
 * a schema shares. A base type (`extends`) is used where a result has every property of it alike.
 */
const NAMED_TYPES: readonly (readonly [name: string, schema: z.ZodType, base?: "base"])[] = [
  ["TargetingRule", OpItems],
  ["ZoneParty", EmbeddedAccount],
  ["ZoneListTargeting", ZoneListTargeting],
  ["ZoneCategoryTargeting", ZoneCategoryTargeting],
  ["ZoneSimpleTargeting", ZoneSimpleTargeting],
  ["ZoneVersionedTargeting", ZoneVersionedTargeting],
  ["ZoneTargeting", ZoneTargeting],
  ["ContainerTrigger", Trigger],
  ["ContainerScrollThreshold", ScrollAxis],
  ["ContainerDisplaySettings", DisplaySettings],
  ["ContainerAbTestConfig", AbTestConfig],
  ["ContainerMessage", Message],
  ["ContainerFilterNode", FilterNode],
  ["ContainerItem", ContainerItem, "base"],
  ["ContainerModalFrequency", Frequency],
  ["ContainerPrompt", ContainerPrompt],
  ["CreativeLocalisedText", Localised],
  ["ExternalDemandSetting", ExternalDemandSetting],
  ["ExternalDemand", ExternalDemand],
  ["IntegrationEvent", IntegrationEvent],
  ["IntegrationActionProperty", IntegrationActionProperty],
  ["IntegrationAction", IntegrationAction],
  ["MacroRecord", MacroRecord],
  ["Macro", Macro],
  ["MessagingProviderSetting", MessagingProviderSetting],
  ["PushTaskTargeting", PushTaskTargeting],
  ["PushTaskAdex", PushTaskAdex],
  ["SegmentTargeting", SegmentTargeting],
  ["Segment", Segment],
  ["Country", Country],
];

/** The TypeScript type of what a transform keeps (an id read as a string, a total as a number). */
const TRANSFORMED = new Map(
  [...TRANSFORM_OUTPUTS].map(([schema, spec]) => {
    if (spec.type !== "string" && spec.type !== "number" && spec.type !== "integer") throw new Error(`a transform kept as ${spec.type}`);
    return [zodDef(schema), scalarType(spec.type)];
  }),
);

interface NamedType {
  readonly name: string;
  readonly schema: z.ZodType;
  readonly base: boolean;
}

/** The result types of every data source, and which file each named one is declared in. */
class ResultTypes {
  private readonly named = new Map<ZodDef, NamedType>();
  /** Data sources whose result reaches each named type. */
  private readonly users = new Map<NamedType, Set<string>>();

  constructor() {
    for (const [name, schema, base] of NAMED_TYPES) this.named.set(zodDef(schema), { name, schema, base: base === "base" });
    for (const source of Object.values(DATA_SOURCES)) this.reach(source.record, source.functionName, new Set());
    for (const type of this.named.values()) if (type.base) this.reach(type.schema, SHARED, new Set());
  }

  /** The file (`getZone`, `shared`) a named type is declared in. */
  fileOf(type: NamedType): string {
    const users = [...(this.users.get(type) ?? [])];
    return users.length === 1 ? users[0]! : SHARED;
  }

  /** The named types declared in `file`, in the order of the table. */
  declaredIn(file: string): NamedType[] {
    return [...this.named.values()].filter((t) => this.fileOf(t) === file);
  }

  nameOf(schema: z.ZodType): NamedType | undefined {
    return this.named.get(zodDef(schema));
  }

  private reach(schema: z.ZodType, user: string, seen: Set<ZodDef>): void {
    const def = zodDef(schema);
    if (seen.has(def)) return;
    seen.add(def);
    const type = this.named.get(def);
    if (type) {
      if (!this.users.has(type)) this.users.set(type, new Set());
      this.users.get(type)!.add(user);
    }
    for (const inner of children(schema)) this.reach(inner, user, seen);
  }

  /** `schema` as a TypeScript type in `file`, noting in `imports` the shared names it uses. */
  typeText(schema: z.ZodType, file: string, imports: Set<string>, indent: string): string {
    const type = this.named.get(zodDef(schema));
    if (type) {
      if (this.fileOf(type) !== file) imports.add(type.name);
      return type.name;
    }
    const def = zodDef(schema);
    switch (def.type) {
      case "optional":
      case "default":
      case "prefault":
      case "nonoptional":
      case "readonly":
      case "catch":
        return this.typeText(def.innerType!, file, imports, indent);
      case "nullable":
        return `${this.typeText(def.innerType!, file, imports, indent)} | null`;
      case "pipe": {
        const kept = TRANSFORMED.get(def);
        if (kept) return kept;
        if (zodDef(def.out!).type === "transform") throw new Error("a transform without a declared output type");
        return this.typeText(def.out!, file, imports, indent);
      }
      case "lazy":
        return this.typeText(def.getter!(), file, imports, indent);
      case "string":
      case "number":
      case "boolean":
        return scalarType(def.type);
      case "array":
        return arrayType(this.typeText(def.element!, file, imports, indent));
      case "record":
        return recordType(this.typeText(def.valueType!, file, imports, indent));
      case "object":
        return `{\n${this.properties(def.shape!, file, imports, `${indent}  `).join("")}${indent}}`;
      case "unknown":
        return "unknown";
      default:
        throw new Error(`no TypeScript type for a zod ${def.type} in a result`);
    }
  }

  /** The declared properties of a wire object, in SDK names, each with its JSDoc. */
  properties(shape: Record<string, z.ZodType>, file: string, imports: Set<string>, indent: string): string[] {
    return Object.entries(shape).map(([field, schema]) => {
      const description = descriptionOf(schema);
      const optional = schema.safeParse(undefined).success ? "?" : "";
      const doc = description ? jsdoc(description, { indent }) : "";
      return `${doc}${indent}${snakeToCamel(field)}${optional}: ${this.typeText(schema, file, imports, indent)};\n`;
    });
  }

  /** `export interface <name>` of an object schema, extending a base type it contains alike. */
  interfaceText(name: string, schema: z.ZodType, file: string, imports: Set<string>): string {
    const shape = Object.entries(objectShape(schema));
    // Rendered one by one, so that a property a base type declares adds no import of its own.
    const render = (entries: [string, z.ZodType][], into: Set<string>) => this.properties(Object.fromEntries(entries), file, into, "  ");
    let kept = shape;
    let heritage = "";
    for (const base of this.named.values()) {
      if (!base.base || base.name === name) continue;
      const inherited = render(Object.entries(objectShape(base.schema)), new Set());
      const own = shape.filter((entry) => !inherited.includes(render([entry], new Set()).join("")));
      if (own.length === shape.length - inherited.length) {
        kept = own;
        heritage = ` extends ${base.name}`;
        if (this.fileOf(base) !== file) imports.add(base.name);
        break;
      }
    }
    const properties = render(kept, imports);
    const description = descriptionOf(schema);
    return `${description ? jsdoc(description) : ""}export interface ${name}${heritage} {\n${properties.join("")}}\n`;
  }
}

/** The schemas directly inside `schema`. */
function children(schema: z.ZodType): z.ZodType[] {
  const def = zodDef(schema);
  if (def.type === "lazy") return [def.getter!()];
  if (def.type === "object") return Object.values(def.shape!);
  return [def.innerType, def.in, def.out, def.element, def.valueType, ...(def.options ?? [])].filter((s) => s !== undefined);
}

/** The shape of an object schema, through the wrappers and the lazy of a recursive one. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  const def = zodDef(schema);
  if (def.type === "object") return def.shape!;
  if (def.type === "lazy") return objectShape(def.getter!());
  if (def.innerType) return objectShape(def.innerType);
  throw new Error(`expected an object schema, found ${def.type}`);
}

/** `getZone` -> `Zone`. */
const subjectName = (source: DataSource) => source.functionName.replace(/^get/, "");

function argumentsText(source: DataSource, fieldType: string | undefined): string {
  const fn = source.functionName;
  const args = Object.entries(source.args);
  const plain: string[] = [];
  const inputs: string[] = [];
  for (const [arg, { description }] of args) {
    plain.push(`${jsdoc(description, { indent: "  " })}  ${arg}: string;\n`);
    inputs.push(`${jsdoc(description, { indent: "  " })}  ${arg}: pulumi.Input<string>;\n`);
  }
  if (fieldType && source.fieldsDescription) {
    plain.push(`${jsdoc(source.fieldsDescription, { indent: "  " })}  fields?: ${fieldType}[];\n`);
    inputs.push(`${jsdoc(source.fieldsDescription, { indent: "  " })}  fields?: pulumi.Input<pulumi.Input<${fieldType}>[]>;\n`);
  }
  if (source.queryDescription) {
    plain.push(`${jsdoc(source.queryDescription, { indent: "  " })}  query?: Record<string, string>;\n`);
    inputs.push(`${jsdoc(source.queryDescription, { indent: "  " })}  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;\n`);
  }
  const name = `Get${subjectName(source)}`;
  const allOptional = args.length === 0 ? "; all optional" : "";
  return (
    `${jsdoc(`Arguments of \`${fn}\`${allOptional}.`)}export interface ${name}Args extends AccountArgument {\n${plain.join("")}}\n\n` +
    `${jsdoc(`Arguments of \`${fn}Output\`: as \`${name}Args\`, each may be an \`Input\`.`)}` +
    `export interface ${name}OutputArgs extends AccountArgument {\n${inputs.join("")}}\n`
  );
}

/** `ZoneField`: what `fields` takes, or undefined when the operation takes no `fields`. */
function fieldTypeText(source: DataSource): { name: string; text: string } | undefined {
  if (!source.fields) return undefined;
  const name = `${subjectName(source)}Field`;
  const text =
    source.fields === "open"
      ? `${jsdoc(`A subresource name for \`${source.functionName}\`'s \`fields\`: lowercase letters, digits and \`_\`.`)}export type ${name} = string;\n`
      : `${jsdoc(`A subresource \`${source.functionName}\` can ask for through \`fields\`.`)}export type ${name} = ${source.fields.map((f) => JSON.stringify(f)).join(" | ")};\n`;
  return { name, text };
}

function functionsText(source: DataSource, result: string, item: string | undefined): string {
  const fn = source.functionName;
  const name = `Get${subjectName(source)}`;
  const optional = Object.keys(source.args).length === 0 ? "?" : "";
  // The example is code: its lines are kept as written, not wrapped.
  const doc = jsdocLines([
    ...wrap(source.description, textWidth("")),
    "",
    "@param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).",
    ...(source.throws ?? []).map((t) => `@throws ${t}`),
    "",
    "@example",
    ...source.example.split("\n"),
  ]);
  const read = item ? `invokeList<${item}>` : `invokeOne<${result}>`;
  return (
    doc +
    `export function ${fn}(args${optional}: ${name}Args, opts?: pulumi.InvokeOptions): Promise<${result}> {\n` +
    `  void opts;\n  return ${read}(DATA_SOURCES.${fn}, args);\n}\n\n` +
    jsdoc(
      `\`Output\` form of \`${fn}\`: takes \`Input\`s, reads once they are known, keeps secretness.\n\n` +
        "@param opts `dependsOn` delays the read until those resources exist; other options change nothing.",
    ) +
    `export function ${fn}Output(args${optional}: ${name}OutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<${result}> {\n` +
    `  return outputForm((a: ${name}Args) => ${fn}(a), args, opts);\n}\n`
  );
}

function dataSourceFile(source: DataSource, types: ResultTypes): string {
  const fn = source.functionName;
  const imports = new Set<string>();
  const result = `Get${subjectName(source)}Result`;
  const parts: string[] = [];
  const fieldType = fieldTypeText(source);
  if (fieldType) parts.push(fieldType.text);
  parts.push(argumentsText(source, fieldType?.name));
  for (const type of types.declaredIn(fn)) parts.push(types.interfaceText(type.name, type.schema, fn, imports));
  let item: string | undefined;
  if (source.shape === "one") {
    parts.push(types.interfaceText(result, source.record, fn, imports));
  } else {
    const named = types.nameOf(source.record);
    if (!named) throw new Error(`${fn}: a list's record needs an SDK name in NAMED_TYPES`);
    item = named.name;
    if (types.fileOf(named) !== fn) imports.add(item);
    const list = source.list!;
    parts.push(
      jsdoc(`What \`${fn}\` returns.`) +
        `export interface ${result} {\n${jsdoc(list.total, { indent: "  " })}  total: number;\n${jsdoc(list.items, { indent: "  " })}  items: ${item}[];\n}\n`,
    );
  }
  parts.push(functionsText(source, result, item));
  const head = [
    HEADER,
    'import * as pulumi from "@pulumi/pulumi";',
    'import { DATA_SOURCES } from "../../provider/dataSources";',
    'import type { AccountArgument } from "./accountArgument";',
    `import { ${source.shape === "one" ? "invokeOne" : "invokeList"}, outputForm, type DataSourceOutputOptions } from "./invoke";`,
    ...(imports.size > 0 ? [`import type { ${[...imports].sort().join(", ")} } from "./${SHARED}";`] : []),
  ];
  return `${head.join("\n")}\n\n${parts.join("\n")}`;
}

function sharedFile(types: ResultTypes): string {
  const imports = new Set<string>();
  const parts = types.declaredIn(SHARED).map((t) => types.interfaceText(t.name, t.schema, SHARED, imports));
  const doc = jsdoc(
    "Result types several data sources share. Every field of a record except `id` may be absent; fields the platform sends beyond these are kept on the object at run time, untyped.",
  );
  return `${HEADER}\n${doc}\n${parts.join("\n")}`;
}

/** `functions.ts`: every data source's file and the shared result types, re-exported (`index.ts` exports it). */
function functionsFile(): string {
  const modules = [...Object.values(DATA_SOURCES).map((source) => source.functionName), SHARED];
  const doc = jsdoc("Every data source's `getX` and `getXOutput`, and the result types they share.");
  return `${HEADER}\n${doc}${modules.map((module) => `export * from "./${module}";\n`).join("")}`;
}

export const dataSourceSdk: Generator = {
  name: "data-source SDK",
  sharedDirectories: [DIR],
  async files() {
    const types = new ResultTypes();
    const files = [formatted(`${DIR}/${SHARED}.ts`, sharedFile(types)), formatted(`${DIR}/functions.ts`, functionsFile())];
    for (const source of Object.values(DATA_SOURCES))
      files.push(formatted(`${DIR}/${source.functionName}.ts`, dataSourceFile(source, types)));
    return Promise.all(files);
  },
};
