#!/usr/bin/env node
/**
 * `pulumi-resource-adplatform`, the native provider plugin (package.json `bin`), found on PATH or
 * through `plugins.providers` in Pulumi.yaml and started with the engine's address as the argument.
 */
import { serve } from "./serve";

serve(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-adplatform: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
