/**
 * The native face's Pulumi package schema, derived (provider/faces/native/provider.ts):
 *
 * - resources: one per kind of `provider/resources/kinds.ts`, from the kind's definition
 *   (`provider/resources/<kind>/definition.ts`): inputs from its input schema, state from the same
 *   plus the fields the platform adds (a group's view, op 19), descriptions from its fields,
 *   `replaces` of its diff rules mark `willReplaceOnChanges`, a field's `deprecated` its `deprecationMessage`;
 * - functions: one per row of the data-source table (`provider/dataSources/definitions.ts`);
 *   arguments from its path arguments, `fields` and `query`, results from the operation's record
 *   schema in the catalog (a list read: `{ total, items }`), described by the row and by the
 *   record schema's own descriptions;
 * - provider configuration: every setting of `provider/configuration/settings.ts`, with its
 *   description, environment variable, default and secrecy from there.
 *
 * `npm run generate` writes it to `provider/faces/native/schema.json`, which the plugin serves;
 * tests/scripts/native/buildSchema.test.ts fails when the file and this derivation disagree.
 */
import type { z } from "zod";
import { Total, WireId } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources/definitions";
import { SETTINGS, SETTING_KEYS, type SettingDefinition } from "../../provider/configuration/settings";
import { PACKAGE_NAME, functionToken, resourceToken, type DataSourceName } from "../../provider/faces/native/tokens";
import { DecimalStringInput, NumberInput } from "../../provider/resources/inputs/decimal";
import type { AnyResourceDefinition, FieldDocs, InputField } from "../../provider/resources/inputs/definition";
import { RESOURCE_DEFINITIONS } from "../../provider/resources/definitions";
import { RESOURCE_KINDS } from "../../provider/resources/kinds";
import { SchemaTypes, descriptionOf, type ObjectTypeSpec, type PropertySpec, type TransformOutputs } from "./zodToSchema";

/** What the transforms of the schemas keep (see `zodToSchema.ts`). */
export const TRANSFORM_OUTPUTS: TransformOutputs = new Map<z.ZodType, { type: "string" | "number" | "integer" }>([
  [WireId, { type: "string" }],
  [Total, { type: "integer" }],
  [NumberInput, { type: "number" }],
  [DecimalStringInput, { type: "string" }],
]);

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const firstParagraph = (text: string) =>
  text
    .split(/\n\s*\n/)[0]!
    .replace(/\s*\n\s*/g, " ")
    .trim();

/**
 * Descriptions by dotted path (`settings.image`) of a kind's fields, as arguments or as state; the
 * native note of a field follows its description.
 */
export function fieldDescriptions(definition: AnyResourceDefinition, side: "input" | "output"): Map<string, string> {
  const text = (docs: FieldDocs) => (side === "input" ? docs.description : (docs.stateDescription ?? docs.description));
  const out = new Map<string, string>();
  for (const [name, field] of Object.entries<InputField>(definition.fields)) {
    out.set(name, field.nativeNote ? `${text(field)} ${field.nativeNote}` : text(field));
    for (const [inner, docs] of Object.entries(field.object?.fields ?? {})) out.set(`${name}.${inner}`, text(docs));
  }
  for (const [name, field] of Object.entries(definition.state ?? {})) out.set(name, field.description);
  return out;
}

function resourceSpec(definition: AnyResourceDefinition, types: SchemaTypes) {
  const walk = (side: "input" | "output") => {
    const docs = fieldDescriptions(definition, side);
    return { side, wireNames: false, typePrefix: definition.kind, describe: (at: string) => docs.get(at) };
  };
  // A declaration may omit what only a create needs (an imported group's `items`); a create's check
  // still requires it.
  const shape = definition.existingInputs.shape as Record<string, z.ZodType>;
  const inputs = types.objectProperties(shape, walk("input"), "");
  for (const [field, rule] of Object.entries(definition.diff)) {
    if (rule.replaces && inputs.properties[field]) inputs.properties[field].willReplaceOnChanges = true;
  }
  const stateShape = {
    ...shape,
    ...Object.fromEntries(Object.entries(definition.state ?? {}).map(([name, f]) => [name, f.schema.optional()])),
  };
  const state = types.objectProperties(stateShape, walk("output"), "");
  // The generated SDKs mark the field deprecated, as the dynamic SDK's JSDoc does.
  for (const [field, { deprecated }] of Object.entries<InputField>(definition.fields)) {
    if (deprecated === undefined) continue;
    for (const properties of [inputs.properties, state.properties])
      if (properties[field]) properties[field].deprecationMessage = deprecated;
  }
  return {
    description: definition.description,
    inputProperties: inputs.properties,
    requiredInputs: inputs.required ?? [],
    properties: state.properties,
    required: state.required ?? [],
  };
}

function functionSpec(name: DataSourceName, types: SchemaTypes) {
  const source = DATA_SOURCES[name];
  const inputs: ObjectTypeSpec = { type: "object", properties: {} };
  const required: string[] = [];
  for (const [arg, { description }] of Object.entries(source.args)) {
    inputs.properties[arg] = { type: "string", description };
    required.push(arg);
  }
  // An empty `required` is left out, as the CLI prints a schema.
  if (required.length > 0) inputs.required = required;
  if (source.fieldsDescription) {
    inputs.properties.fields = { type: "array", items: { type: "string" }, description: source.fieldsDescription };
  }
  if (source.queryDescription) {
    inputs.properties.query = { type: "object", additionalProperties: { type: "string" }, description: source.queryDescription };
  }
  const prefix = pascal(name.replace(/^get/, ""));
  const walk = {
    side: "output" as const,
    wireNames: true,
    typePrefix: prefix,
    describe: (_at: string, schema: z.ZodType) => descriptionOf(schema),
  };
  let outputs: ObjectTypeSpec;
  if (source.shape === "one") {
    const shape = (source.record as z.ZodObject).shape as Record<string, z.ZodType>;
    outputs = { type: "object", ...types.objectProperties(shape, walk, "") };
  } else {
    outputs = {
      type: "object",
      properties: {
        total: { type: "integer", description: source.list!.total },
        items: {
          type: "array",
          items: types.typeOf(source.record, { ...walk, typePrefix: `${prefix}Item` }, ""),
          description: source.list!.items,
        },
      },
      required: ["total", "items"],
    };
  }
  return { description: firstParagraph(source.description), inputs, outputs };
}

/**
 * The provider's configuration, one property per setting. The environment variable and the default
 * are told in the description, not as `defaultInfo`: with that, the generated SDKs would read the
 * variable in the program and send its value (the token) as a provider input, into the state.
 */
function configSpec(): Record<string, PropertySpec> {
  const out: Record<string, PropertySpec> = {};
  for (const key of SETTING_KEYS) {
    const setting: SettingDefinition = SETTINGS[key];
    const fallback = `Else the environment variable \`${setting.env}\`${setting.defaultDescription ? `, else ${setting.defaultDescription}` : ""}.`;
    out[key] = { type: "string", description: `${setting.description} ${fallback}`, ...(setting.secret ? { secret: true } : {}) };
  }
  return out;
}

/**
 * Where the engine downloads the plugin archive `pulumi-resource-adplatform-v<version>-<os>-<arch>.tar.gz`
 * when a program needs it and `PULUMI_HOME` has none: a release setting. `github://api.github.com/<org>/<repo>`
 * names the assets of that repository's GitHub release `v<version>`. The organisation is a placeholder
 * until the project is published; `ADPLATFORM_PLUGIN_DOWNLOAD_URL` replaces it when `npm run dist` builds
 * a release (README, "Install").
 */
export const DEFAULT_PLUGIN_DOWNLOAD_URL = "github://api.github.com/adplatform/pulumi-adplatform";

/** Where the Go SDK's module sits in the repository (a release tags it `<dir>/v<version>`). */
export const GO_SDK_DIR = "sdks/go/adplatform";
/** The Go SDK's module path, which is also its package's import path. */
export const GO_MODULE_PATH = `github.com/adplatform/pulumi-adplatform/${GO_SDK_DIR}`;

/** What a package index shows of the Python SDK (its README; gen-sdk puts it in the package). */
const PYTHON_README = `# pulumi_adplatform

The Pulumi provider of the advertising and messaging platform's JSON API for Python programs:
the resources \`BidStrategy\`, \`CampaignGroup\`, \`BidModifier\` and \`AbTestVariation\`, and the
platform's read-only data sources (\`get_zone\`, \`get_countries\`, ...).

\`\`\`sh
pip install pulumi_adplatform
pulumi config set adplatform:baseUrl https://api.example.com
pulumi config set --secret adplatform:token <token>
\`\`\`

The engine downloads the provider plugin (\`pulumi-resource-adplatform\`, which runs on Node.js 20.18.1
or later) on the first \`pulumi up\`.
`;

/** The package schema, as an object (JSON-serialisable). */
export function buildSchema(version: string, pluginDownloadURL = DEFAULT_PLUGIN_DOWNLOAD_URL): Record<string, unknown> {
  const types = new SchemaTypes(PACKAGE_NAME, TRANSFORM_OUTPUTS);
  const resources: Record<string, unknown> = {};
  for (const kind of RESOURCE_KINDS) resources[resourceToken(kind)] = resourceSpec(RESOURCE_DEFINITIONS[kind], types);
  const functions: Record<string, unknown> = {};
  for (const name of Object.keys(DATA_SOURCES) as DataSourceName[]) functions[functionToken(name)] = functionSpec(name, types);
  const config = configSpec();
  return {
    name: PACKAGE_NAME,
    displayName: "Advertising platform",
    version,
    description: "Resources and data sources of the advertising and messaging platform's JSON API.",
    license: "Apache-2.0",
    pluginDownloadURL,
    meta: { moduleFormat: "(.*)" },
    config: { variables: config },
    provider: {
      description: "The provider of one platform account: its base URL and token (several accounts: one provider each).",
      inputProperties: config,
      properties: config,
    },
    resources,
    functions,
    types: Object.fromEntries(Object.entries(types.types).sort(([a], [b]) => a.localeCompare(b))),
    language: {
      // respectSchemaVersion: the packages and their pulumi-plugin.json carry `version`, so the engine
      // knows which plugin to download; without it gen-sdk leaves placeholders for a pipeline to fill.
      nodejs: { packageName: "pulumi-adplatform-native", dependencies: { "@pulumi/pulumi": "^3.100.0" }, respectSchemaVersion: true },
      python: {
        packageName: "pulumi_adplatform",
        requires: { pulumi: ">=3.100.0,<4.0.0" },
        respectSchemaVersion: true,
        pyproject: { enabled: true },
        readme: PYTHON_README,
      },
      // The Go SDK is a module of its own at this path (tools/gen-go-sdk writes it; README, "Install").
      go: { importBasePath: GO_MODULE_PATH, respectSchemaVersion: true },
    },
  };
}
