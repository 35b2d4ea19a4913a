/**
 * The native face's warn sink: warnings from the lifecycle code to the user, as engine diagnostics
 * attached to the resource's URN.
 *
 * The engine starts the plugin with its own address among its arguments (`../engineAddress`).
 * `@pulumi/pulumi`'s provider server keeps that address to itself, and `pulumi.log` sends `Log` RPCs only once the runtime knows
 * it, so this module hands it to the runtime once; without one (a test calling the provider
 * directly) warnings go to stderr.
 */
import * as pulumi from "@pulumi/pulumi";

let engineAddress: string | undefined;
let connected = false;

/** Remembers the engine's address (from the plugin's arguments). */
export function setEngineAddress(address: string | undefined): void {
  engineAddress = address;
  connected = false;
}

function connectOnce(): void {
  if (connected) return;
  connected = true;
  if (engineAddress === undefined || pulumi.runtime.getEngine() !== undefined) return;
  // The plugin has no resource monitor and no program: only the engine address matters.
  pulumi.runtime.resetOptions(pulumi.getProject(), pulumi.getStack(), -1, engineAddress, "", false, "");
}

/** Sends `message` at `severity` about the resource `urn` (none: of the whole update); resolves once delivered. */
async function engineLog(severity: "warn" | "info", message: string, urn: string | undefined): Promise<void> {
  connectOnce();
  if (pulumi.runtime.getEngine() === undefined) {
    process.stderr.write(`${severity === "warn" ? "warning" : "info"}: ${message}\n`);
    return;
  }
  // `pulumi.log` reads only `urn` of the resource it is given; the face has a URN, not a Resource.
  const subject = urn === undefined ? undefined : ({ urn: pulumi.output(urn) } as unknown as pulumi.Resource);
  await pulumi.log[severity](message, subject);
}

/**
 * Sends a warning about the resource `urn` (none: a warning of the whole update) and resolves once
 * it is delivered.
 */
export function engineWarn(message: string, urn: string | undefined): Promise<void> {
  return engineLog("warn", message, urn);
}

/** Sends an info message about the resource `urn` and resolves once it is delivered. */
export function engineInfo(message: string, urn: string | undefined): Promise<void> {
  return engineLog("info", message, urn);
}
