/**
 * Messages from the lifecycle code to the user, as engine diagnostics, for both faces: warnings,
 * info messages and ephemeral statuses, attached to a resource's URN when there is one.
 *
 * `pulumi.log` sends `Log` RPCs only once `@pulumi/pulumi`'s runtime knows the engine's address, and
 * neither plugin gives the runtime that address by itself: the dynamic-provider plugin gets it as its
 * first argument, which `@pulumi/pulumi/cmd/dynamic-provider` checks and then ignores
 * (pulumi/pulumi#6065, #18249), and the provider server of the native plugin keeps it to itself. So
 * a face names the address (`useEngineAddress`) and the first message hands it to the runtime, once.
 * Without an engine (a test calling a face directly) messages go to stderr.
 */
import * as pulumi from "@pulumi/pulumi";

let engineAddress: string | undefined;
let connected = false;

/** The engine's address, from the plugin's arguments (`./engineAddress.ts`); undefined outside a plugin. */
export function useEngineAddress(address: string | undefined): void {
  engineAddress = address;
  connected = false;
}

function connectOnce(): void {
  if (connected) return;
  connected = true;
  if (engineAddress === undefined || pulumi.runtime.getEngine() !== undefined) return;
  // A plugin has no resource monitor and no program: only the engine address matters; project and
  // stack keep their current values.
  pulumi.runtime.resetOptions(pulumi.getProject(), pulumi.getStack(), -1, engineAddress, "", false, "");
}

/** Sends `message` at `severity` about the resource `urn` (none: of the whole update); resolves once delivered. */
async function engineLog(severity: "warn" | "info", message: string, urn: string | undefined): Promise<void> {
  connectOnce();
  if (pulumi.runtime.getEngine() === undefined) {
    process.stderr.write(`${severity === "warn" ? "warning" : "info"}: ${message}\n`);
    return;
  }
  // `pulumi.log` reads only `urn` of the resource it is given; a face has a URN, not a Resource.
  const subject = urn === undefined ? undefined : ({ urn: pulumi.output(urn) } as unknown as pulumi.Resource);
  await pulumi.log[severity](message, subject);
}

/**
 * Sends a status about the resource `urn`: ephemeral, so the CLI shows it in the resource's row
 * while it is the latest and keeps it out of the update's diagnostics. Not awaited (a later status
 * replaces it anyway); without an engine it goes nowhere.
 */
export function engineStatus(message: string, urn: string | undefined): void {
  connectOnce();
  if (pulumi.runtime.getEngine() === undefined) return;
  const subject = urn === undefined ? undefined : ({ urn: pulumi.output(urn) } as unknown as pulumi.Resource);
  pulumi.log.info(message, subject, undefined, true).catch(() => undefined);
}

/**
 * Sends a warning about the resource `urn` (none: a warning of the whole update) and resolves once
 * it is delivered, so it is never lost when the plugin exits right after the RPC.
 */
export function engineWarn(message: string, urn?: string): Promise<void> {
  return engineLog("warn", message, urn);
}

/** Sends an info message (what a step will do), delivered as `engineWarn`'s warnings are. */
export function engineInfo(message: string, urn?: string): Promise<void> {
  return engineLog("info", message, urn);
}
