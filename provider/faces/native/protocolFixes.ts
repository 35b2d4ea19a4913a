/**
 * Three gaps of `@pulumi/pulumi`'s provider server, closed by patching the message classes it decodes
 * with (`@pulumi/pulumi/proto/provider_pb`, looked up at each request):
 * - an import's `Read` carries no properties and the server's `getProperties()!` would fail: it now
 *   reads as an empty map ("import");
 * - its `Configure` hands the provider no configuration: each `ConfigureRequest` goes to `onConfigure`;
 * - its `Diff` gives the old outputs only: a field missing there (a group's `items`, which an import
 *   takes from the import file's `inputs`) is filled in from the old inputs, so the declaration
 *   `pulumi import` wrote compares equal to the state.
 */
import * as grpc from "@grpc/grpc-js";
import type { Struct as StructType } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { AdPlatformError } from "../../errors";

/**
 * The `Struct` of the `google-protobuf` the server decodes with (`@pulumi/pulumi`'s, not ours), taken
 * from a decoded message rather than by path so it is the same class in the bundled plugin (`npm run dist`).
 */
export function structClass(): typeof StructType {
  // A ReadRequest whose field 3 (`properties`, a Struct) is present and empty: tag (3 << 3) | 2, length 0.
  const decoded = provproto.ReadRequest.deserializeBinary(Uint8Array.of((3 << 3) | 2, 0)).getProperties();
  if (decoded === undefined)
    throw new AdPlatformError("ADP_ERR_UNSUPPORTED", "@pulumi/pulumi's ReadRequest no longer carries properties as field 3");
  return decoded.constructor as typeof StructType;
}

/** A unary gRPC method answering `handle(request)`; a throw is an INTERNAL error naming `method`. */
export function unaryMethod<Req, Res>(method: string, handle: (request: Req) => Res) {
  return (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>): void => {
    try {
      callback(null, handle(call.request));
    } catch (error) {
      callback({ code: grpc.status.INTERNAL, details: `${method}: ${error instanceof Error ? error.message : String(error)}` }, null);
    }
  };
}

/** The provider's arguments and the engine's config variables. */
export interface ConfigureSeen {
  readonly args: Record<string, unknown>;
  readonly variables: ReadonlyMap<string, string>;
}

let installed = false;

/** `olds` with each field it lacks (absent or null) taken from `oldInputs`; one it holds is never changed. */
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

/** Once per process. */
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
