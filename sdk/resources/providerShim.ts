/**
 * The provider object each resource class hands to `pulumi.dynamic.Resource`, which Pulumi
 * serializes into the state as `__provider`.
 *
 * Every method `require`s `pulumi-adplatform/provider` inside its body and delegates to the dynamic
 * provider of its kind (`resourceProvider(kind)`: the kind's lifecycle behind the dynamic face).
 * Pulumi's closure serializer never captures `require` (it is a module global meant for run time),
 * so the serialized text holds only these small functions and the kind string: no token, no
 * absolute path, no client, and it does not change when the package's internals do.
 * The dynamic-provider plugin resolves the package name from the Pulumi program's directory.
 *
 * One object per kind, created once at module load: `pulumi.dynamic.Resource` caches the serialized
 * text per provider object, so a stack with 100 resources serializes each kind once.
 */
/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-call,
   @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return --
   The shim's bodies must be literal, untyped `require(...)` calls (see above): that is what keeps
   the serialized text free of captured values. */
import type * as pulumi from "@pulumi/pulumi";
import { RESOURCE_KINDS, type ResourceKind } from "../../provider/resources/kinds";

/** The package entry the shim requires at run time (package.json `exports["./provider"]`). */
export const PROVIDER_MODULE = "pulumi-adplatform/provider";

/**
 * The serializable shim for `kind`. Written with literal `require("pulumi-adplatform/provider")`
 * calls (not `require(PROVIDER_MODULE)`), so that the constant is not captured into the state.
 */
export function providerShim(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => require("pulumi-adplatform/provider").configure(req),
    check: (olds, news) => require("pulumi-adplatform/provider").resourceProvider(kind).check(olds, news),
    diff: (id, olds, news) => require("pulumi-adplatform/provider").resourceProvider(kind).diff(id, olds, news),
    create: (inputs) => require("pulumi-adplatform/provider").resourceProvider(kind).create(inputs),
    read: (id, props) => require("pulumi-adplatform/provider").resourceProvider(kind).read(id, props),
    update: (id, olds, news) => require("pulumi-adplatform/provider").resourceProvider(kind).update(id, olds, news),
    delete: (id, props) => require("pulumi-adplatform/provider").resourceProvider(kind).delete(id, props),
  };
}

/** The shims, one per kind. */
export const PROVIDER_SHIMS = Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, providerShim(kind)])) as Readonly<
  Record<ResourceKind, pulumi.dynamic.ResourceProvider>
>;
