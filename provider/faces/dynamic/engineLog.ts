/**
 * The dynamic face's warn and info sinks: messages from the lifecycle code to the user, as engine diagnostics.
 *
 * `pulumi.log.warn` reaches the engine only when `@pulumi/pulumi` knows the engine's address. The
 * language host gives a program that address (`PULUMI_NODEJS_ENGINE`), but the dynamic-provider
 * plugin process gets it only as its first command-line argument, which
 * `@pulumi/pulumi/cmd/dynamic-provider` checks and then ignores (pulumi/pulumi#6065, #18249); without
 * it `pulumi.log.warn` falls back to `console.warn`, which the CLI shows as unstructured plugin
 * output at best. So, once, in the plugin process only, this module hands that argument to the
 * runtime (`pulumi.runtime.resetOptions`), after which `pulumi.log.warn` sends real `Log` RPCs.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { engineAddressFromArgs } from "../engineAddress";

const PLUGIN_MAIN = path.join("cmd", "dynamic-provider", "index.js");

/** The engine address when this process is the dynamic-provider plugin, else undefined. */
export function pluginEngineAddress(
  mainFilename: string | undefined = require.main?.filename,
  argv: readonly string[] = process.argv,
): string | undefined {
  if (!mainFilename || !mainFilename.endsWith(PLUGIN_MAIN)) return undefined;
  return engineAddressFromArgs(argv.slice(2));
}

let connectAttempted = false;

/** Points `@pulumi/pulumi`'s logger at the engine, once, when running in the plugin without one. */
function connectEngineOnce(): void {
  if (connectAttempted) return;
  connectAttempted = true;
  if (pulumi.runtime.getEngine() !== undefined) return;
  const address = pluginEngineAddress();
  if (address === undefined) return;
  // The plugin process has no resource monitor and no program: only the engine address matters;
  // project and stack keep their current values.
  pulumi.runtime.resetOptions(pulumi.getProject(), pulumi.getStack(), -1, address, "", false, "");
}

/**
 * Sends a warning to the engine (shown with the update's diagnostics) and waits until it is
 * delivered, so it is never lost when the plugin exits right after the RPC.
 */
export async function engineWarn(message: string): Promise<void> {
  connectEngineOnce();
  await pulumi.log.warn(message);
}

/** Sends an info message to the engine (what a step will do), delivered as `engineWarn`'s warnings are. */
export async function engineInfo(message: string): Promise<void> {
  connectEngineOnce();
  await pulumi.log.info(message);
}
