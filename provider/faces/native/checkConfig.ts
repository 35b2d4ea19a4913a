/**
 * The native provider's `CheckConfig`. The engine records a provider's checked configuration in the
 * state, and `@pulumi/pulumi`'s server answers "not implemented", so a token set without `--secret` sat
 * there in clear: here the token, and a limits URL that may carry a password, come back marked secret.
 * It also refuses at preview what the client, read grace and limiter would refuse at first use, naming
 * the setting; an absent or unknown setting is judged where it is known. The server's class is not
 * exported, so `Server.addService` is wrapped to put `checkConfig` and `diffConfig` in front.
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
import { structClass, unaryMethod } from "./protocolFixes";

/** A setting's value that is known and not empty (a preview may send the unknown sentinel). */
const given = (value: unknown): value is string => typeof value === "string" && value !== UNKNOWN_VALUE && value.trim() !== "";

/** `news` with the token and a password-bearing limits URL marked secret. */
export function checkedConfig(news: Readonly<Record<string, JavaScriptValue>>): Record<string, JavaScriptValue> {
  const checked = { ...news };
  if (given(checked.token)) checked.token = secretOf(checked.token);
  if (given(checked.limitsUrl) && mayCarryPassword(checked.limitsUrl)) checked.limitsUrl = secretOf(checked.limitsUrl);
  return checked;
}

/** The problems of the settings given, each named as the user set it: stack config key, or an explicit provider's argument. */
export function configFailures(news: Readonly<Record<string, JavaScriptValue>>, defaultProvider: boolean): string[] {
  const failures: string[] = [];
  for (const setting of ["baseUrl", "token"] as const) {
    const value = news[setting];
    const reason = given(value) ? connectionRefusal(setting, value) : undefined;
    if (reason !== undefined)
      failures.push(`${defaultProvider ? { baseUrl: CONFIG_BASE_URL, token: CONFIG_TOKEN }[setting] : setting}: ${reason}`);
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

const checkConfig = unaryMethod("CheckConfig", (request: provproto.CheckRequest) => {
  const news = request.getNews()?.toJavaScript() ?? {};
  const response = new provproto.CheckResponse();
  response.setInputs(structClass().fromJavaScript(checkedConfig(news)));
  // No property: the engine would print the property's value beside it, and that is a credential.
  for (const reason of configFailures(news, isDefaultProvider(request.getUrn()))) {
    const failure = new provproto.CheckFailure();
    failure.setReason(reason);
    response.addFailures(failure);
  }
  return response;
});

let installed = false;

/** Serves `checkConfig` and `diffConfig` for the provider service of every gRPC server this process starts from now on. */
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
