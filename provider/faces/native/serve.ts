/** Serves the native provider over gRPC with `@pulumi/pulumi/provider`'s `main`, as the engine runs a plugin. */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumiProvider from "@pulumi/pulumi/provider";
import { setFallbackWarningSink } from "../../infrastructure";
import { resolveSettings, type Settings } from "../../configuration";
import { engineAddressFromArgs } from "../engineAddress";
import { installCheckConfig } from "./checkConfig";
import { plainCredentialsOf, settingsFromConfigure } from "./configuration";
import { engineFallbackSink, engineWarn, useEngineAddress } from "../engineLog";
import { installProtocolFixes } from "./protocolFixes";
import { nativeProvider } from "./provider";
import { schemaText } from "./schema";

/** Set by the bundler of `npm run dist`: no package.json sits above the plugin archive. */
declare const ADPLATFORM_PLUGIN_VERSION: string | undefined;

/** The plugin's version, as `GetPluginInfo` reports it. */
function packageVersion(): string {
  if (typeof ADPLATFORM_PLUGIN_VERSION === "string") return ADPLATFORM_PLUGIN_VERSION;
  // bin/provider/faces/native/ -> the package root; provider/faces/native/ when run from source.
  for (const up of ["../../../..", "../../.."]) {
    const file = path.resolve(__dirname, up, "package.json");
    if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
  }
  return "0.0.0";
}

/**
 * Starts the plugin with the engine's arguments. The settings of the engine's `Configure` are handed
 * to the provider with every call (before one, the environment's). A credential reaching `Configure`
 * in clear is warned about: `checkConfig.ts` marks them secret, so only where the engine skipped it.
 */
export async function serve(args: readonly string[]): Promise<void> {
  let configured: Settings | undefined;
  let warnedPlain = false;
  installCheckConfig();
  installProtocolFixes((request) => {
    configured = settingsFromConfigure(request);
    const warning = plainCredentialsOf(request);
    if (warning !== undefined && !warnedPlain) {
      warnedPlain = true;
      void engineWarn(`adplatform: ${warning}`);
    }
  });
  useEngineAddress(engineAddressFromArgs(args));
  setFallbackWarningSink(engineFallbackSink);
  const settings = () => configured ?? resolveSettings([]);
  await pulumiProvider.main(nativeProvider(packageVersion(), schemaText(), settings), [...args]);
}
