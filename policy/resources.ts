/**
 * What the pack reads of a resource: its kind, whichever face registered it, and its properties.
 *
 * Both faces register the same four kinds under different type tokens, with the same property
 * names (the SDK's camelCase): the dynamic face as `pulumi-nodejs:dynamic/adplatform:<Kind>`
 * (`pulumi.dynamic.Resource` with the module and type the SDK classes pass), the native face as
 * `adplatform:index:<Kind>` in every language (a Python program's `max_value` is `maxValue` on the
 * wire to the engine, as the schema names it). So every rule matches a kind, not a token.
 */
import { kindOfToken } from "../provider/faces/native/tokens";
import { NumberInput } from "../provider/resources/inputs/decimal";
import { RESOURCE_MODULE, isResourceKind, type ResourceKind } from "../provider/resources/kinds";

const DYNAMIC_PREFIX = `pulumi-nodejs:dynamic/${RESOURCE_MODULE}:`;

/** The kind a resource type token names on either face, or undefined for any other resource. */
export function kindOfType(type: string): ResourceKind | undefined {
  if (type.startsWith(DYNAMIC_PREFIX)) {
    const kind = type.slice(DYNAMIC_PREFIX.length);
    return isResourceKind(kind) ? kind : undefined;
  }
  return kindOfToken(type);
}

/** One resource as a rule sees it: what names it in a message, and its properties. */
export interface ResourceView {
  kind: ResourceKind;
  /** The Pulumi resource name. */
  name: string;
  props: Record<string, unknown>;
}

/** `BidStrategy "night-bids"`: how every message names its resource. */
export function describe(resource: Pick<ResourceView, "kind" | "name">): string {
  return `${resource.kind} "${resource.name}"`;
}

/**
 * A numeric property as a number: a number, or a decimal string such as `"1.50"` (the forms the
 * provider accepts). Undefined when absent or malformed; the provider's own check refuses a malformed
 * value, so the pack does not report it twice.
 */
export function numberOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = NumberInput.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A value as a message shows it: strings quoted, as the program wrote them. */
export function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** A plain object, or undefined. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
