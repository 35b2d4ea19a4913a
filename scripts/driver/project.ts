/**
 * A Pulumi project of this repository (the root Pulumi.yaml or an example), loaded so that the
 * Automation API can run its program inline.
 *
 * Why inline: the Go module proxy does not serve the Node.js language host, so where Pulumi is
 * built from source (scripts/ensure-pulumi) `pulumi up` cannot run a `runtime: nodejs` project
 * directly. The Automation API serves the program itself; the real CLI still does the whole
 * deployment and starts the real dynamic-provider plugin. The program modules export one async
 * function (their stack outputs), so the same file also runs with `pulumi up` under a normal install.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./paths";

/** What the driver needs from a project folder. */
export interface ProjectInfo {
  /** Folder holding Pulumi.yaml: the Automation API's `workDir`. */
  readonly projectDir: string;
  /** `name` of Pulumi.yaml (also the namespace of its own config keys). */
  readonly name: string;
  /**
   * Folder of the program: `main` of Pulumi.yaml when it names a folder, else the project folder.
   * Pulumi runs the program and the dynamic-provider plugin with this as their working directory.
   */
  readonly programDir: string;
}

/** A Pulumi program as the Automation API runs it inline: returns the stack outputs. */
export type ProgramFn = () => Promise<Record<string, unknown>>;

/**
 * Reads `name` and `main` from `<projectDir>/Pulumi.yaml`. Only these two top-level scalar keys are
 * needed, so a line match is enough (no YAML dependency for the driver).
 */
export function readProject(projectDir: string): ProjectInfo {
  const file = path.join(projectDir, "Pulumi.yaml");
  const text = fs.readFileSync(file, "utf8");
  const scalar = (key: string): string | undefined => {
    const match = new RegExp(`^${key}:[ \\t]*["']?([^"'#\\s]+)["']?[ \\t]*(?:#.*)?$`, "m").exec(text);
    return match?.[1];
  };
  const name = scalar("name");
  if (name === undefined) throw new Error(`${file}: no top-level "name"`);
  const main = scalar("main");
  const programDir = main === undefined ? projectDir : path.resolve(projectDir, main);
  return { projectDir, name, programDir };
}

/**
 * Makes `pulumi-adplatform` resolvable by name from `programDir`, the way `npm install` makes it
 * for users: `<programDir>/node_modules/pulumi-adplatform` becomes a link to this repository.
 *
 * Why a link: Pulumi serializes each dynamic resource's provider as a shim that does
 * `require("pulumi-adplatform/provider")`, and the dynamic-provider plugin evaluates it with
 * `require-from-string`, which resolves from the plugin's working directory (the program folder).
 * Node's package self-reference does not apply there, and each example has its own package.json
 * (users copy it), so the repository root's package name is not found by walking up either. The
 * examples' package.json depend on `"pulumi-adplatform": "file:../.."`, so `npm install` inside an
 * example creates the same link; this does it without an install. `node_modules/` is git-ignored.
 * An existing entry that is not a link to this repository is left alone (a user's real install).
 */
export function linkPackage(programDir: string): void {
  const modules = path.join(programDir, "node_modules");
  const link = path.join(modules, "pulumi-adplatform");
  let existing: fs.Stats | undefined;
  try {
    existing = fs.lstatSync(link);
  } catch {
    existing = undefined;
  }
  if (existing !== undefined) {
    if (!existing.isSymbolicLink() || fs.realpathSync(link) === fs.realpathSync(REPO_ROOT)) return;
    fs.rmSync(link); // a stale link (e.g. to another checkout)
  }
  fs.mkdirSync(modules, { recursive: true });
  fs.symlinkSync(path.relative(modules, REPO_ROOT), link, "dir");
}

/**
 * Loads the program of `project`: its `index.ts`, whose module value is the program function.
 * Under plain Node the caller installs a `.ts` loader first (scripts/run-ts.js); under jest ts-jest
 * transforms it. `pulumi-adplatform` inside it resolves through the link `linkPackage` made.
 */
export function loadProgram(project: ProjectInfo): ProgramFn {
  const file = path.join(project.programDir, "index.ts");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded: unknown = require(file);
  const fn = typeof loaded === "function" ? loaded : (loaded as { default?: unknown } | undefined)?.default;
  if (typeof fn !== "function") throw new Error(`${file} does not export a program function (export = async () => ...)`);
  return fn as ProgramFn;
}

/**
 * The `pulumi-adplatform` module exactly as the program resolves it (same file, so the same module
 * instance and the same data-source cache).
 */
export function packageAsProgramSees(project: ProjectInfo): { clearDataSourceCache(): void } {
  const resolved = require.resolve("pulumi-adplatform", { paths: [project.programDir] });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(resolved) as { clearDataSourceCache(): void };
}
