/**
 * The small files of the launcher plugin archive (darwin-arm64, the one platform without a single
 * executable: scripts/dist/nodeRuntimes.ts) around the bundled provider (`lib/provider.js`): the
 * launcher the engine runs (`pulumi-resource-adplatform`) and `lib/start.js`, which checks the Node.js
 * version before loading the bundle. The check is
 * its own file in the oldest syntax so that an old Node.js reaches it instead of failing to parse the
 * bundle; each failure is one line on stderr naming what to install.
 */

/** The executable's name in the archive (the engine's `pulumi-resource-<name>`). */
export const PLUGIN_EXECUTABLE = "pulumi-resource-adplatform";

/** Which Node.js is required, from package.json's `engines.node` (`>=20.18.1`). */
export function minimumNode(enginesNode: string): string {
  const match = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(enginesNode.trim());
  if (!match) throw new Error(`package.json engines.node must read ">=X.Y.Z", not ${JSON.stringify(enginesNode)}`);
  return `${match[1]}.${match[2]}.${match[3]}`;
}

const missingNode = (minimum: string) =>
  `${PLUGIN_EXECUTABLE}: needs Node.js ${minimum} or later, and no 'node' is on PATH (install it from https://nodejs.org)`;

/** The POSIX sh launcher (linux, darwin). */
export function shLauncher(minimum: string): string {
  return `#!/bin/sh
# Starts the adplatform provider plugin with the Node.js on PATH (${minimum} or later).
command -v node >/dev/null 2>&1 || { echo "${missingNode(minimum)}" >&2; exit 1; }
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || exit 1
exec node "$here/lib/start.js" "$@"
`;
}

/** `lib/start.js`: the version gate, in syntax every Node.js parses, then the bundle. */
export function startScript(minimum: string): string {
  const [major, minor, patch] = minimum.split(".").map(Number);
  return `"use strict";
// Checks the running Node.js before loading the provider bundle, which needs ${minimum} or later.
var v = process.versions.node.split(".").map(Number);
var required = [${major}, ${minor}, ${patch}];
for (var i = 0; i < 3 && v[i] === required[i]; i++);
if (i < 3 && v[i] < required[i]) {
  process.stderr.write("${PLUGIN_EXECUTABLE}: needs Node.js ${minimum} or later, and the 'node' on PATH is " + process.version + " (install a newer one from https://nodejs.org)\\n");
  process.exit(1);
}
require("./provider.js");
`;
}
