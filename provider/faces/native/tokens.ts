/**
 * The native face's names: the package, and the tokens of its resources and functions in the
 * Pulumi schema. Tokens are part of every state the native face writes (`adplatform:index:<Kind>`
 * is the URN type), so, like the kind names, they are a stable interface.
 */
import { DATA_SOURCES } from "../../dataSources";
import { isResourceKind, type ResourceKind } from "../../resources";

/** The package name: the plugin is `pulumi-resource-adplatform`, config keys are `adplatform:<key>`. */
export const PACKAGE_NAME = "adplatform";

/** The one module of the package. */
export const MODULE = "index";

/** A data source's SDK function name (`getZone`). */
export type DataSourceName = keyof typeof DATA_SOURCES;

/** `adplatform:index:CampaignGroup`. */
export function resourceToken(kind: ResourceKind): string {
  return `${PACKAGE_NAME}:${MODULE}:${kind}`;
}

/** `adplatform:index:getZone`. */
export function functionToken(name: DataSourceName): string {
  return `${PACKAGE_NAME}:${MODULE}:${name}`;
}

/** The kind a resource token (or the type part of a URN) names, or undefined. */
export function kindOfToken(token: string): ResourceKind | undefined {
  const prefix = `${PACKAGE_NAME}:${MODULE}:`;
  if (!token.startsWith(prefix)) return undefined;
  const kind = token.slice(prefix.length);
  return isResourceKind(kind) ? kind : undefined;
}

/** The data source a function token names, or undefined. */
export function dataSourceOfToken(token: string): DataSourceName | undefined {
  const prefix = `${PACKAGE_NAME}:${MODULE}:`;
  if (!token.startsWith(prefix)) return undefined;
  const name = token.slice(prefix.length);
  return Object.prototype.hasOwnProperty.call(DATA_SOURCES, name) ? (name as DataSourceName) : undefined;
}

/**
 * The type token of a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`); the type may be
 * qualified by parent types (`a$b`), of which the last is the resource's own.
 */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  return qualified.split("$").pop() ?? "";
}
