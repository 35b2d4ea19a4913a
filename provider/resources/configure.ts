/**
 * The provider's `configure`: the dynamic-provider plugin calls it once per serialized provider
 * (once per kind) with the stack configuration; every kind shares the credentials it stores.
 */
import type * as pulumi from "@pulumi/pulumi";
import { configureCredentials } from "./shared/credentials";

/** Reads `adplatform:baseUrl` and `adplatform:token` from the stack config (see shared/credentials). */
export async function configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureCredentials(request.config);
}
