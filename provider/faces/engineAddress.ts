/**
 * The engine's address among a plugin's arguments, for both faces: the first argument that is not a
 * flag (`--logtostderr`, `-v=<n>`, `--tracing <endpoint>`), as `@pulumi/pulumi`'s provider server parses them.
 */
import * as path from "node:path";

export function engineAddressFromArgs(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--tracing") i += 1;
    else if (arg !== "--logtostderr" && !arg.startsWith("-v=")) return arg;
  }
  return undefined;
}

const DYNAMIC_PLUGIN_MAIN = path.join("cmd", "dynamic-provider", "index.js");

/** The engine address when this process is the dynamic-provider plugin, else undefined. */
export function pluginEngineAddress(
  mainFilename: string | undefined = require.main?.filename,
  argv: readonly string[] = process.argv,
): string | undefined {
  return mainFilename?.endsWith(DYNAMIC_PLUGIN_MAIN) ? engineAddressFromArgs(argv.slice(2)) : undefined;
}
