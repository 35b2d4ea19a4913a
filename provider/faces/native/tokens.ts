/**
 * The native face's names: the package, and the tokens of its resources and functions. Tokens are in
 * every state the native face writes (`adplatform:index:<Kind>` is the URN type): a stable interface.
 */
import { DATA_SOURCES, type DataSourceName } from "../../dataSources";
import { isResourceKind, type ResourceKind } from "../../resources";

/** The plugin is `pulumi-resource-adplatform`, config keys are `adplatform:<key>`. */
export const PACKAGE_NAME = "adplatform";

/** `adplatform:index:`: the package's one module. */
const PREFIX = `${PACKAGE_NAME}:index:`;

export type { DataSourceName };

/** `adplatform:index:CampaignGroup`. */
export const resourceToken = (kind: ResourceKind): string => PREFIX + kind;

/** `adplatform:index:getZone`. */
export const functionToken = (name: DataSourceName): string => PREFIX + name;

/** What `token` names after the prefix, when it has it. */
const nameOf = (token: string) => (token.startsWith(PREFIX) ? token.slice(PREFIX.length) : undefined);

/** The kind a resource token (or the type part of a URN) names, or undefined. */
export function kindOfToken(token: string): ResourceKind | undefined {
  const kind = nameOf(token);
  return kind !== undefined && isResourceKind(kind) ? kind : undefined;
}

/** The data source a function token names, or undefined. */
export function dataSourceOfToken(token: string): DataSourceName | undefined {
  const name = nameOf(token);
  return name !== undefined && Object.hasOwn(DATA_SOURCES, name) ? (name as DataSourceName) : undefined;
}

/** The type token of `urn:pulumi:<stack>::<project>::<type>::<name>`: of a type qualified by its parents' (`a$b`), the last. */
export const typeOfUrn = (urn: string): string => (urn.split("::")[2] ?? "").split("$").pop() ?? "";
