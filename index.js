/**
 * The package directory's entry (package.json `main`): what `require("<this directory>")` loads.
 * `require("pulumi-adplatform")` resolves through `exports` to the SDK and never comes here; a tool
 * that ignores `exports` does, and gets the same SDK.
 *
 * The other caller is Pulumi running a checkout of this repository as a source-based plugin
 * (PulumiPlugin.yaml, `pulumi package add <checkout>`): the Node.js language host starts
 * `@pulumi/pulumi/cmd/run-plugin`, which requires the plugin's directory and has no option naming
 * another entry point. Loaded from there, this serves the native provider with the arguments the
 * engine passed (run-plugin leaves them in process.argv after its own script).
 */
"use strict";
const path = require("node:path");

const runner = require.main === undefined ? "" : require.main.filename;
const startedAsPlugin =
  runner.endsWith(path.join("@pulumi", "pulumi", "cmd", "run-plugin", "index.js")) &&
  module.parent !== null &&
  module.parent !== undefined &&
  module.parent.filename === path.join(path.dirname(runner), "run.js");

if (startedAsPlugin) {
  require("./bin/provider/faces/native/main.js");
} else {
  module.exports = require("./bin/sdk/index.js");
}
