/**
 * Three gaps of `@pulumi/pulumi`'s provider server (`@pulumi/pulumi/provider`), closed at the protobuf
 * level, before the server sees a request:
 *
 * - Its `Read` calls `getProperties()!.toJavaScript()`, and the `Read` of an import (`pulumi import`,
 *   or the `import` resource option) carries no properties (the engine has no state yet), so the
 *   server would fail before our code runs. A `ReadRequest` without properties (or inputs) now reads
 *   as an empty map, which the face takes for "no state: import".
 * - Its `Configure` drops the request (it answers the protocol flags only) and hands the provider no
 *   configuration. Every `ConfigureRequest` the server decodes is now shown to `onConfigure` first.
 * - Its `Diff` hands the provider the old outputs only, not the old inputs the engine also sends. An
 *   import whose read cannot return a field takes it from the import file's `inputs` (the engine
 *   merges them into the read's inputs, not into its outputs): a group's `items`, which the API never
 *   returns. A `DiffRequest`'s old outputs now read with such a field filled in from its old inputs,
 *   so the declaration `pulumi import` wrote (with `items`) compares equal to the state.
 *
 * All three patch the generated message classes the server's service definition decodes with
 * (`@pulumi/pulumi/proto/provider_pb`), which the server looks up on that module at each request.
 */
import type { Struct as StructType } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { AdPlatformError } from "../../errors";

/**
 * `google-protobuf`'s `Struct` of the copy the server decodes with (`@pulumi/pulumi`'s dependency, not
 * ours), so the empty map is of the class the server expects. Taken from a decoded message rather than
 * resolved by path, so that it is the same class in a plugin bundled into one file (`npm run dist`).
 */
export function structClass(): typeof StructType {
  // A ReadRequest whose field 3 (`properties`, a Struct) is present and empty: tag (3 << 3) | 2, length 0.
  const decoded = provproto.ReadRequest.deserializeBinary(Uint8Array.of((3 << 3) | 2, 0)).getProperties();
  if (decoded === undefined)
    throw new AdPlatformError("ADP_ERR_UNSUPPORTED", "@pulumi/pulumi's ReadRequest no longer carries properties as field 3");
  return decoded.constructor as typeof StructType;
}

/** What `onConfigure` receives: the provider's arguments and the engine's config variables. */
export interface ConfigureSeen {
  readonly args: Record<string, unknown>;
  readonly variables: ReadonlyMap<string, string>;
}

let installed = false;

/**
 * `olds` with each field it lacks (absent or null) taken from `oldInputs`: what the state holds of
 * a field the outputs did not get. A field the outputs hold is never changed.
 */
export function oldsFilledFromInputs(olds: StructType, oldInputs: StructType | undefined): StructType {
  const inputs = oldInputs?.getFieldsMap();
  if (inputs === undefined || inputs.getLength() === 0) return olds;
  const fields = olds.getFieldsMap();
  for (const [key, value] of inputs.entries()) {
    const current = fields.get(key);
    if (current === undefined || current.hasNullValue()) fields.set(key, value);
  }
  return olds;
}

/** Installs the fixes, once per process. */
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

  const diffRequest = provproto.DiffRequest.prototype;
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const getOlds = diffRequest.getOlds;
  diffRequest.getOlds = function (this: provproto.DiffRequest) {
    return oldsFilledFromInputs(getOlds.call(this) ?? new Struct(), this.getOldInputs());
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
