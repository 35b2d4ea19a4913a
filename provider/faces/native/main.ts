#!/usr/bin/env node
/**
 * `pulumi-resource-adplatform`, the native provider plugin (package.json `bin`). The engine finds it
 * on PATH (`node_modules/.bin` of a program that installed this package) or through
 * `plugins.providers` in Pulumi.yaml, and starts it with its own address as the argument.
 */
import { serve } from "./serve";

serve(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-adplatform: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
