/**
 * The native provider's `CheckConfig`, which keeps its credentials out of the state in clear.
 *
 * The engine records a provider's checked configuration as that provider's inputs in the state. For
 * the default provider that is the stack config, and a value set without `--secret` is plain there:
 * `@pulumi/pulumi`'s provider server answers `CheckConfig` "not implemented", so the engine kept the
 * configuration as it was, and `adplatform:token` typed without `--secret` sat in the state in clear.
 * Here `CheckConfig` hands the configuration back unchanged except that the token, and a limits URL
 * that may carry a password, are marked secret; the engine reads the answer keeping secrets, so the
 * state holds them encrypted however they were set. (It sends the configuration with every secret
 * unwrapped, so which were set as secrets cannot be told here; it marks those again itself.)
 *
 * It also refuses, at preview time and naming the setting, a base URL or token given in the
 * configuration that no call could use (plain http:// to a host that is not loopback, a token that
 * does not fit in a header), a read grace that is not a whole number of seconds and a rate-limit
 * share that is not a fraction: the same refusals the client, the read grace and the limiter make at
 * their first use. A setting that is absent may
 * still come from the plugin's environment, and one unknown in a preview is judged on the run that
 * knows it, so neither is judged here.
 *
 * The server is `@pulumi/pulumi`'s, registered inside its `main`, and its class is not exported, so
 * the method is given at registration: gRPC's `Server.addService` is wrapped to serve this service
 * with our `checkConfig` in front of the server's own methods.
 */
import * as grpc from "@grpc/grpc-js";
import type { JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { CONFIG_BASE_URL, CONFIG_TOKEN, connectionRefusal } from "../../client";
import { mayCarryPassword } from "../../infrastructure";
import { rateLimitShareRefusal } from "../../configuration";
import { readGraceRefusal, leftBehindRefusal, UNKNOWN_VALUE } from "../../resources";
import { diffConfig } from "./diffConfig";
import { secretOf } from "./engineValues";
import { structClass } from "./protocolFixes";

/** The stack config key of each connection setting, which a failure names for the user. */
const CONFIG_KEYS = { baseUrl: CONFIG_BASE_URL, token: CONFIG_TOKEN } as const;

/** A setting's value that is known and not empty (a preview may send the unknown sentinel). */
const given = (value: unknown): value is string => typeof value === "string" && value !== UNKNOWN_VALUE && value.trim() !== "";

/** The configuration `news` as the state should keep it: the token and a password-bearing limits URL marked secret. */
export function checkedConfig(news: Readonly<Record<string, JavaScriptValue>>): Record<string, JavaScriptValue> {
  const checked = { ...news };
  if (given(checked.token)) checked.token = secretOf(checked.token);
  if (given(checked.limitsUrl) && mayCarryPassword(checked.limitsUrl)) checked.limitsUrl = secretOf(checked.limitsUrl);
  return checked;
}

/**
 * The problems of the connection settings given in `news`, each naming its setting as the user set
 * it: the stack config key for the default provider, the argument for an explicit one (empty when
 * every one given is usable).
 */
export function configFailures(news: Readonly<Record<string, JavaScriptValue>>, defaultProvider: boolean): string[] {
  const failures: string[] = [];
  for (const setting of ["baseUrl", "token"] as const) {
    const value = news[setting];
    const reason = given(value) ? connectionRefusal(setting, value) : undefined;
    if (reason !== undefined) failures.push(`${defaultProvider ? CONFIG_KEYS[setting] : setting}: ${reason}`);
  }
  for (const [setting, refusal] of [
    ["readGraceSeconds", readGraceRefusal],
    ["rateLimitShare", rateLimitShareRefusal],
    ["leftBehind", leftBehindRefusal],
  ] as const) {
    const value = news[setting];
    const reason = given(value) ? refusal(value) : undefined;
    if (reason !== undefined) failures.push(defaultProvider ? reason : reason.replace(/^adplatform:/, ""));
  }
  return failures;
}

/** Whether `urn` names a default provider, which the engine calls `default` or `default_<version>`. */
const isDefaultProvider = (urn: string) => /^default(_|$)/.test(urn.slice(urn.lastIndexOf("::") + 2));

function checkConfig(
  call: grpc.ServerUnaryCall<provproto.CheckRequest, provproto.CheckResponse>,
  callback: grpc.sendUnaryData<provproto.CheckResponse>,
): void {
  try {
    const news = call.request.getNews()?.toJavaScript() ?? {};
    const response = new provproto.CheckResponse();
    response.setInputs(structClass().fromJavaScript(checkedConfig(news)));
    // No property: the engine would print the property's value beside it, and that is a credential.
    for (const reason of configFailures(news, isDefaultProvider(call.request.getUrn()))) {
      const failure = new provproto.CheckFailure();
      failure.setReason(reason);
      response.addFailures(failure);
    }
    callback(null, response);
  } catch (error) {
    callback({ code: grpc.status.INTERNAL, details: `CheckConfig: ${error instanceof Error ? error.message : String(error)}` }, null);
  }
}

let installed = false;

/**
 * Serves `checkConfig`, and `diffConfig` (./diffConfig.ts), for the provider service of every gRPC
 * server this process starts from now on.
 */
export function installCheckConfig(): void {
  if (installed) return;
  installed = true;
  // Called as a method of the server (`this`), as `@pulumi/pulumi`'s `main` calls it.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (this: grpc.Server, service, implementation) {
    if (service !== provrpc.ResourceProviderService) return addService.call(this, service, implementation);
    const withCheckConfig = Object.create(implementation, {
      checkConfig: { value: checkConfig },
      diffConfig: { value: diffConfig },
    }) as grpc.UntypedServiceImplementation;
    return addService.call(this, service, withCheckConfig);
  };
}
