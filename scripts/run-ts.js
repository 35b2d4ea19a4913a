#!/usr/bin/env node
/**
 * run-ts: runs a TypeScript entry point of this repository with plain Node, no build step.
 *
 *   node scripts/run-ts.js scripts/driver/demo.ts [args...]
 *
 * It installs a `.ts` loader that transpiles each file on load with the repository's `typescript`
 * (`transpileModule`: syntax only, no type check). The driver under scripts/driver and the example
 * programs under examples/ are type-checked elsewhere (tsconfig.test.json through tests/e2e, and
 * each example's own tsconfig.json in tests/e2e/examples.test.ts); this loader only has to run them.
 * Why not compile them into bin/: the examples are projects users copy, kept outside the package's
 * tsconfig, and the driver must load them from their own folders so that `pulumi-adplatform`
 * resolves there by name, as it does for users.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");
const ts = require("typescript");

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  sourceMap: false,
  inlineSourceMap: true,
};

// Module._extensions is the documented-deprecated but stable hook every TS runner (ts-node, sucrase) uses.
Module._extensions[".ts"] = function loadTs(module, filename) {
  const source = fs.readFileSync(filename, "utf8");
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  process.stderr.write("usage: node scripts/run-ts.js <file.ts> [args...]\n");
  process.exit(2);
}
process.argv = [process.argv[0], path.resolve(entry), ...rest];
require(path.resolve(entry));
