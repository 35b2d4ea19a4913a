/**
 * What the end-to-end suites of the release artifacts share: the files of dist/ (`npm run dist`, which
 * `npm run test:e2e` runs first), a fresh directory outside the repository for each program, and the
 * environment a user without this repository has: PATH with the Pulumi CLI and its language hosts,
 * Node.js and the system's tools, and nothing of this checkout (no node_modules/.bin, which npm puts on
 * PATH and which holds `pulumi-resource-adplatform`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiBinDir, REPO_ROOT } from "../../scripts/driver/paths";

export const DIST_DIR = path.join(REPO_ROOT, "dist");

/** package.json's version: the one every artifact carries. */
export const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

/** The path of `name` in dist/; throws with what to run when it is not there. */
export function distFile(name: string): string {
  const file = path.join(DIST_DIR, name);
  if (!fs.existsSync(file)) throw new Error(`${file} not found: run \`npm run dist\` first (npm run test:e2e does)`);
  return file;
}

/** The plugin archive for the machine the tests run on, named as the engine names it. */
export function pluginArchiveName(): string {
  const os_ = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform as string];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  if (!os_ || !arch) throw new Error(`no plugin archive is built for ${process.platform}-${process.arch}`);
  return `pulumi-resource-adplatform-v${VERSION}-${os_}-${arch}.tar.gz`;
}

/** A fresh directory under the system's temporary directory, far from the checkout. */
export function freshDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (dir.startsWith(REPO_ROOT + path.sep)) throw new Error(`${dir} is inside the repository`);
  return dir;
}

/** PATH as a user has it: the CLI's bin directory, then PATH without anything under the checkout. */
export function userPath(): string {
  const outside = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter(
      (dir) =>
        dir !== "" && dir !== pulumiBinDir() && path.resolve(dir) !== REPO_ROOT && !path.resolve(dir).startsWith(REPO_ROOT + path.sep),
    );
  const found = outside.find((dir) => fs.existsSync(path.join(dir, "pulumi-resource-adplatform")));
  if (found !== undefined)
    throw new Error(`${found} holds a pulumi-resource-adplatform: the test would not show that the release alone works`);
  return [pulumiBinDir(), ...outside].join(path.delimiter);
}
