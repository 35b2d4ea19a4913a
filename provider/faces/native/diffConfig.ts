/**
 * The native provider's `DiffConfig`: which changes of a provider's configuration replace its
 * resources. A provider instance is one account, so this is where the native face says what
 * identifies an account: its base URL. The token is a credential, not an identity: a rotated token
 * is an update of the provider that records it, and its resources are not touched (as changing an
 * AWS provider's keys replaces nothing and changing its region does).
 *
 * `@pulumi/pulumi`'s provider server answers `DiffConfig` "not implemented"; the engine then
 * updates the provider whatever changed, so a base URL pointing at another platform left every
 * resource in the state while the objects stayed on the old one. Here a base URL that names
 * another platform (compared as the client resolves it: a trailing slash, a default port or the
 * host's case make no difference) replaces the provider, and with it every resource it manages.
 * The detailed diff names each changed setting, so the preview says which one (a secret is shown as
 * `[secret]` beside its name, never its value).
 *
 * Decision (not shown in spec, Authentication 2: which account a token belongs to): a base URL set
 * on one side only cannot be compared (the environment may have supplied the other), so it is an
 * update; a base URL unknown in a preview may name another platform, so it shows as a replace.
 */
import * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { normalisedBaseUrl } from "../../client";
import { isUnknown } from "../../resources";

type Config = Readonly<Record<string, unknown>>;

/** One changed setting: `update`, or `replace` when it makes the provider another account. */
export interface ConfigChange {
  readonly key: string;
  readonly kind: "add" | "delete" | "update" | "updateReplace";
}

/** The keys the engine adds to a provider's configuration for itself: not settings of ours. */
const isEngineKey = (key: string) => key === "version" || key === "pluginDownloadURL" || key.startsWith("__");

const given = (value: unknown) => value !== undefined && value !== null && !(typeof value === "string" && value.trim() === "");

/** Whether the base URLs `olds` and `news` give name another platform (see the module comment). */
function baseUrlReplaces(olds: Config, news: Config): boolean {
  if (!given(olds.baseUrl) || !given(news.baseUrl)) return false;
  if (isUnknown(news.baseUrl)) return true;
  const before = normalisedBaseUrl(olds.baseUrl);
  const after = normalisedBaseUrl(news.baseUrl);
  // One that cannot be resolved is refused by CheckConfig or the first call; only two usable ones are compared.
  return before !== undefined && after !== undefined && before !== after;
}

/** The settings that differ between the provider's old configuration and its new one, in key order. */
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

/** The `DiffResponse` for `changes`. */
export function diffResponse(changes: readonly ConfigChange[]): provproto.DiffResponse {
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
}

/** The gRPC method: the engine sends the old configuration as `olds` (and `oldInputs`) and the new one as `news`, secrets unwrapped. */
export function diffConfig(
  call: grpc.ServerUnaryCall<provproto.DiffRequest, provproto.DiffResponse>,
  callback: grpc.sendUnaryData<provproto.DiffResponse>,
): void {
  try {
    const oldInputs = call.request.getOldInputs()?.toJavaScript() ?? {};
    // An engine that sends no old inputs sends the old outputs, which for a provider are its inputs.
    const olds = Object.keys(oldInputs).length > 0 ? oldInputs : (call.request.getOlds()?.toJavaScript() ?? {});
    const news = call.request.getNews()?.toJavaScript() ?? {};
    callback(null, diffResponse(configChanges(olds, news)));
  } catch (error) {
    callback({ code: grpc.status.INTERNAL, details: `DiffConfig: ${error instanceof Error ? error.message : String(error)}` }, null);
  }
}
