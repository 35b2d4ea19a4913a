/** The provider contract each of the four kinds implements. */
import type * as pulumi from "@pulumi/pulumi";

/**
 * Every method of `pulumi.dynamic.ResourceProvider` but `configure` (the package configures once for
 * all kinds: provider/index.ts). All are required because the serialized shim forwards every method.
 */
export type KindProvider<Inputs, Outputs> = Required<Omit<pulumi.dynamic.ResourceProvider<Inputs, Outputs>, "configure">>;
