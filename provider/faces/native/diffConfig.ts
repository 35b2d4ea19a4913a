/**
 * The native provider's `DiffConfig`: a provider is one account, identified by its base URL; a rotated
 * token is an update that touches no resource. `@pulumi/pulumi`'s server answers "not implemented", so
 * the engine updated the provider whatever changed, and a base URL naming another platform left every
 * resource in the state while the objects stayed on the old one. Here that replaces the provider and
 * its resources (compared as the client resolves it: trailing slash, default port, host case aside).
 *
 * Decision (not shown in spec, Authentication 2): a base URL set on one side only cannot be compared
 * (the environment may supply the other), so it is an update; one unknown in a preview is a replace.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { normalisedBaseUrl } from "../../client";
import { isUnknown } from "../../resources";
import { unaryMethod } from "./protocolFixes";

type Config = Readonly<Record<string, unknown>>;

/** One changed setting; `updateReplace` when it makes the provider another account. */
export interface ConfigChange {
  readonly key: string;
  readonly kind: "add" | "delete" | "update" | "updateReplace";
}

/** Keys the engine adds to a provider's configuration for itself. */
const isEngineKey = (key: string) => key === "version" || key === "pluginDownloadURL" || key.startsWith("__");

const given = (value: unknown) => value !== undefined && value !== null && !(typeof value === "string" && value.trim() === "");

function baseUrlReplaces(olds: Config, news: Config): boolean {
  if (!given(olds.baseUrl) || !given(news.baseUrl)) return false;
  if (isUnknown(news.baseUrl)) return true;
  const before = normalisedBaseUrl(olds.baseUrl);
  const after = normalisedBaseUrl(news.baseUrl);
  // One that cannot be resolved is refused by CheckConfig or the first call; only two usable ones are compared.
  return before !== undefined && after !== undefined && before !== after;
}

/** The settings that differ, in key order. */
export function configChanges(olds: Config, news: Config): ConfigChange[] {
  const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((key) => !isEngineKey(key)).sort();
  const changes: ConfigChange[] = [];
  for (const key of keys) {
    const before = olds[key];
    const after = news[key];
    if (!given(before) && !given(after)) continue;
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    if (!given(before)) changes.push({ key, kind: "add" });
    else if (!given(after)) changes.push({ key, kind: "delete" });
    else changes.push({ key, kind: key === "baseUrl" && baseUrlReplaces(olds, news) ? "updateReplace" : "update" });
  }
  return changes;
}

const KINDS: Readonly<Record<ConfigChange["kind"], provproto.PropertyDiff.Kind>> = {
  add: provproto.PropertyDiff.Kind.ADD,
  delete: provproto.PropertyDiff.Kind.DELETE,
  update: provproto.PropertyDiff.Kind.UPDATE,
  updateReplace: provproto.PropertyDiff.Kind.UPDATE_REPLACE,
};

/** Secrets arrive unwrapped; an engine that sends no old inputs sends the old outputs, for a provider its inputs. */
export const diffConfig = unaryMethod("DiffConfig", (request: provproto.DiffRequest) => {
  const oldInputs = request.getOldInputs()?.toJavaScript() ?? {};
  const olds = Object.keys(oldInputs).length > 0 ? oldInputs : (request.getOlds()?.toJavaScript() ?? {});
  const changes = configChanges(olds, request.getNews()?.toJavaScript() ?? {});
  const response = new provproto.DiffResponse();
  response.setChanges(changes.length > 0 ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
  response.setDiffsList(changes.map(({ key }) => key));
  response.setReplacesList(changes.filter(({ kind }) => kind === "updateReplace").map(({ key }) => key));
  response.setHasdetaileddiff(true);
  const detailed = response.getDetaileddiffMap();
  for (const { key, kind } of changes) {
    const diff = new provproto.PropertyDiff();
    diff.setKind(KINDS[kind]);
    diff.setInputdiff(true);
    detailed.set(key, diff);
  }
  return response;
});
