/**
 * The engine's address among a provider plugin's arguments, for both faces' plugins: the engine
 * starts a plugin with its own address as the first argument that is not a flag, after any of
 * `--logtostderr`, `-v=<n>` and `--tracing <endpoint>`, parsed as `@pulumi/pulumi`'s provider
 * server parses them.
 */
export function engineAddressFromArgs(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--logtostderr" || arg.startsWith("-v=")) continue;
    if (arg === "--tracing") {
      i += 1;
      continue;
    }
    return arg;
  }
  return undefined;
}
