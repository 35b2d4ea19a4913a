/**
 * Two gaps of `@pulumi/pulumi`'s provider server (`@pulumi/pulumi/provider`), closed at the protobuf
 * level, before the server sees a request:
 *
 * - Its `Read` calls `getProperties()!.toJavaScript()`, and the `Read` of an import (`pulumi import`,
 *   or the `import` resource option) carries no properties (the engine has no state yet), so the
 *   server would fail before our code runs. A `ReadRequest` without properties (or inputs) now reads
 *   as an empty map, which the face takes for "no state: import".
 * - Its `Configure` drops the request (it answers the protocol flags only) and hands the provider no
 *   configuration. Every `ConfigureRequest` the server decodes is now shown to `onConfigure` first.
 *
 * Both patch the generated message classes the server's service definition decodes with
 * (`@pulumi/pulumi/proto/provider_pb`), which the server looks up on that module at each request.
 */
import * as path from "node:path";
import type { Struct as StructType } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";

/**
 * `google-protobuf`'s `Struct`, from the copy `@pulumi/pulumi` itself loads (it is that package's
 * dependency, not ours), so the empty map is of the class the server expects.
 */
function structClass(): typeof StructType {
  const pulumiRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const modulePath = require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiRoot] });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(modulePath) as { Struct: typeof StructType }).Struct;
}

/** What `onConfigure` receives: the provider's arguments and the engine's config variables. */
export interface ConfigureSeen {
  readonly args: Record<string, unknown>;
  readonly variables: ReadonlyMap<string, string>;
}

let installed = false;

/** Installs both fixes, once per process. */
export function installProtocolFixes(onConfigure: (seen: ConfigureSeen) => void): void {
  if (installed) return;
  installed = true;

  const Struct = structClass();
  const readRequest = provproto.ReadRequest.prototype;
  // Called as a method of the request (`this` is the request), as the server calls it.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const getProperties = readRequest.getProperties;
  readRequest.getProperties = function (this: provproto.ReadRequest) {
    return getProperties.call(this) ?? new Struct();
  };

  const decodeConfigure = provproto.ConfigureRequest.deserializeBinary.bind(provproto.ConfigureRequest);
  provproto.ConfigureRequest.deserializeBinary = (bytes: Uint8Array) => {
    const request = decodeConfigure(bytes);
    const variables = new Map<string, string>();
    for (const [key, value] of request.getVariablesMap().entries()) variables.set(key, value);
    const args = (request.getArgs()?.toJavaScript() ?? {}) as Record<string, unknown>;
    onConfigure({ args, variables });
    return request;
  };
}
