/**
 * Pulumi's `import` resource option on the four resources: turned into the adoption each resource
 * already has, and never passed to the engine.
 *
 * The engine imports a resource by asking its provider to read the object before the resource has
 * any state; a dynamic resource's provider code lives in that state (`__provider`), so
 * `@pulumi/pulumi`'s dynamic-provider plugin fails before any code of this package runs, with
 * "Cannot read properties of undefined (reading 'toJavaScript')" (pulumi/pulumi#16175). Adoption
 * does what `import` means, through `create` instead of a read:
 *
 * - a kind adopting through `adoptId` (`CampaignGroup`, `BidStrategy`): the import id becomes
 *   `adoptId` (an `adoptId` that names another object is an error naming both);
 * - a kind that always takes over the object its ids name (`BidModifier`, `AbTestVariation`): the
 *   import id must be those ids, as the resource's own `id` writes them (`"301/2"`).
 *
 * Which is which, and what a kind's messages say, is its definition's `adoption`.
 *
 * A mismatch throws from the constructor, so `pulumi preview` fails before anything is sent. So does
 * an id to compare that is not a plain string (an `Output` or a promise): it is known only later.
 */
import * as pulumi from "@pulumi/pulumi";
import { shortNoun } from "../../provider/resources/inputs/definition";
import { RESOURCE_DEFINITIONS } from "../../provider/resources/definitions";
import type { ResourceKind } from "../../provider/resources/kinds";

/** Said in every message: why the option is not handed to Pulumi. */
const WHY = "Pulumi's import option does not work for dynamic resources";

/** How one kind reads an import id: derived from its definition's `adoption`. */
interface ImportRule {
  /** The object's noun in messages (the kind is named beside it). */
  noun: string;
  /**
   * `adoptId`: the id fills `adoptId` (an optional input); `ids`: the id only repeats the declared
   * ids, which the resource always adopts.
   */
  mode: "adoptId" | "ids";
  /** The input fields the id stands for, in the order `split` returns their values. */
  fields: readonly string[];
  /** The id's form, for the message when `split` refuses it. */
  form: string;
  /** What the option did, after `import "<id>" `. */
  effect: string;
}

function importRule(kind: ResourceKind): ImportRule {
  const definition = RESOURCE_DEFINITIONS[kind];
  const { adoption } = definition;
  const noun = shortNoun(definition);
  return adoption.by === "adoptId"
    ? {
        noun,
        mode: "adoptId",
        fields: ["adoptId"],
        form: `"<${noun} id>"`,
        effect: `was taken as adoptId: the ${noun} ${adoption.importEffect}`,
      }
    : {
        noun,
        mode: "ids",
        fields: adoption.ids,
        form: `"${adoption.ids.map((field) => `<${field}>`).join("/")}"`,
        effect: `names the declared ${adoption.ids.join(" and ")}, whose ${noun} this resource takes over on create as it always does`,
      };
}

/**
 * The import id's values for `fields`, or undefined when it does not have their form. Decision: one
 * form, the resource's own id, the values joined by `/`. With several fields an id holding another
 * `/` is refused, since which `/` separates them would be a guess: such ids are declared without
 * the option.
 */
function split(importId: string, fields: readonly string[]): string[] | undefined {
  if (fields.length === 1) return [importId];
  const parts = importId.split("/");
  return parts.length === fields.length && parts.every((part) => part !== "") ? parts : undefined;
}

/** What a constructor hands to `pulumi.dynamic.Resource` instead of its own args and options. */
export interface ImportedAsAdoption<A> {
  /** The args, with the import id in place (`adoptId` filled; declared ids checked). */
  args: A;
  /** The options without `import`; every other option kept. */
  opts: pulumi.CustomResourceOptions | undefined;
  /** The message to log on the resource, when the option was set. */
  message?: string;
}

/** A declared id in a message: a string, or not set (computed ids are refused before). */
const quote = (value: unknown): string => (typeof value === "string" ? JSON.stringify(value) : "(not set)");

/** An `adoptId` that adopts nothing (the lifecycle creates when it is empty). */
const absent = (value: unknown) => value === undefined || value === "";

/**
 * Turns `opts.import` into adoption for a resource of `kind` named `name`, or throws an `Error`
 * naming the resource, what was given and what to write. Without the option, `args` and `opts` come
 * back as they are.
 */
export function importAsAdoption<A extends object>(
  kind: ResourceKind,
  name: string,
  args: A,
  opts: pulumi.CustomResourceOptions | undefined,
): ImportedAsAdoption<A> {
  if (opts === undefined || !("import" in opts)) return { args, opts };
  const { import: importId, ...rest } = opts;
  // Pulumi ignores an empty import id; so does this.
  if (importId === undefined || importId === "") return { args, opts: rest };

  const rule = importRule(kind);
  const label = `${kind} ${JSON.stringify(name)}`;
  const given = args as Record<string, pulumi.Input<string> | undefined>;
  const values = split(importId, rule.fields);
  if (values === undefined) {
    const declared = rule.fields.map((field) => given[field]);
    const write = declared.every((id) => typeof id === "string") ? `import: ${JSON.stringify(declared.join("/"))}` : `import: ${rule.form}`;
    throw new Error(
      `${label}: the import option ${JSON.stringify(importId)} must be ${rule.form}, the ${rule.noun}'s id. This resource ` +
        `always takes over the ${rule.noun} its ids name, so the option may only repeat them (${WHY}): write ${write}, ` +
        `or remove the import option.`,
    );
  }
  const expected = rule.fields.map((field, i) => [field, values[i]!] as const);

  /** The error for declared ids that are not the import id's. */
  const mismatch = () => {
    const id = JSON.stringify(importId);
    const declared = rule.fields.map((field) => `${field} ${quote(given[field])}`).join(", ");
    const write = expected.map(([field, value]) => `${field}: ${JSON.stringify(value)}`).join(", ");
    return rule.mode === "adoptId"
      ? new Error(
          `${label}: the import option ${id} and ${declared} do not name the same ${rule.noun}; this package takes import ` +
            `as adoptId (${WHY}). Keep one: write ${write} without the import option, or remove the import option ` +
            `to keep ${declared}.`,
        )
      : new Error(
          `${label}: the import option ${id} does not name the declared ${rule.noun} (${declared}). This resource ` +
            `always takes over the ${rule.noun} its ids name, so the option may only repeat them (${WHY}): ` +
            `write ${write} to manage ${rule.noun} ${id}, or remove the import option.`,
        );
  };

  /**
   * The error for a declared id that is not a plain string: it is known only once the update runs,
   * after the constructor, and a mismatch found then would surface from inside Pulumi's serializer
   * rather than as this error.
   */
  const computed = (field: string) => {
    const write = expected.map(([name, value]) => `${name}: ${JSON.stringify(value)}`).join(", ");
    const instead =
      rule.mode === "adoptId"
        ? `remove the import option (${field} already adopts), or write ${write} without it`
        : `remove the import option (this resource always takes over the ${rule.noun} its ids name), or write ${write}`;
    return new Error(
      `${label}: the import option ${JSON.stringify(importId)} is compared with ${field} when the resource is declared, ` +
        `but ${field} is a computed value (an Output or a promise). ${WHY}; ${instead}.`,
    );
  };

  const replaced: Record<string, unknown> = { ...given };
  for (const [field, id] of expected) {
    const declared = given[field];
    if (rule.mode === "adoptId" && absent(declared)) {
      replaced[field] = id;
    } else if (typeof declared !== "string" && declared !== undefined) {
      throw computed(field);
    } else if (declared !== id) {
      throw mismatch();
    }
  }
  return {
    args: replaced as A,
    opts: rest,
    message: `${label}: import ${JSON.stringify(importId)} ${rule.effect}. ${WHY}, so the option is not passed to the engine.`,
  };
}

/** Logs what the import option did (an info message on `resource`), when it was set. */
export function logImportAsAdoption(resource: pulumi.Resource, imported: ImportedAsAdoption<unknown>): void {
  if (imported.message !== undefined) void pulumi.log.info(imported.message, resource);
}
