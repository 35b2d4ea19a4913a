/**
 * Messages to the user as engine diagnostics, for both faces, about a resource's URN when there is one.
 * `pulumi.log` needs the runtime to know the engine's address, which neither plugin gives it (the
 * dynamic-provider plugin ignores its argument: pulumi/pulumi#6065, #18249; the native server keeps it):
 * a face names it (`useEngineAddress`) and the first message hands it over. No engine: stderr.
 */
import * as pulumi from "@pulumi/pulumi";
import type { setFallbackWarningSink } from "../infrastructure";

let engineAddress: string | undefined;
let connected = false;

/** The engine's address, from the plugin's arguments (`./engineAddress.ts`); undefined outside a plugin. */
export function useEngineAddress(address: string | undefined): void {
  engineAddress = address;
  connected = false;
}

/** Whether there is an engine to send to, once told the address. */
function connect(): boolean {
  if (!connected) {
    connected = true;
    // A plugin has no resource monitor and no program: project and stack keep their values.
    if (engineAddress !== undefined && pulumi.runtime.getEngine() === undefined)
      pulumi.runtime.resetOptions(pulumi.getProject(), pulumi.getStack(), -1, engineAddress, "", false, "");
  }
  return pulumi.runtime.getEngine() !== undefined;
}

/** `pulumi.log` reads only `urn` of the resource it is given; a face has a URN, not a Resource. */
const subjectOf = (urn: string | undefined) =>
  urn === undefined ? undefined : ({ urn: pulumi.output(urn) } as unknown as pulumi.Resource);

async function engineLog(severity: "warn" | "info", message: string, urn: string | undefined): Promise<void> {
  if (!connect()) {
    process.stderr.write(`${severity === "warn" ? "warning" : "info"}: ${message}\n`);
    return;
  }
  await pulumi.log[severity](message, subjectOf(urn));
}

/** An ephemeral status, shown in the resource's row while the latest; not awaited (a later one replaces it). */
export function engineStatus(message: string, urn: string | undefined): void {
  if (connect()) pulumi.log.info(message, subjectOf(urn), undefined, true).catch(() => undefined);
}

/** Resolves once delivered, so it is not lost when the plugin exits right after the RPC; no `urn`: of the whole update. */
export const engineWarn = (message: string, urn?: string): Promise<void> => engineLog("warn", message, urn);

/** What a step will do, delivered as `engineWarn`'s warnings are. */
export const engineInfo = (message: string, urn?: string): Promise<void> => engineLog("info", message, urn);

/** In a plugin, a shared place given up (the limits URL's Redis, the limits directory) is a warning of the update. */
export const engineFallbackSink: Parameters<typeof setFallbackWarningSink>[0] = (message, severity) =>
  void (severity === "info" ? engineInfo : engineWarn)(message);
