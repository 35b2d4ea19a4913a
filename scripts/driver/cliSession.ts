/**
 * The Pulumi CLI as a user types it, in one program directory: every command runs the real `pulumi`
 * from scripts/ensure-pulumi (with the Node.js language host, which a `Pulumi.yaml` program with
 * `runtime: nodejs` needs) on a throwaway local backend, and can be echoed as `$ pulumi ...` with
 * its output streamed. Used by `npm run demo` when the language host exists, and by the user's-path
 * end-to-end suite.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiBinDir, REPO_ROOT } from "./paths";
import { linkPackage } from "./project";
import { pulumiEnv } from "./stackSession";

/** What one command did. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A program directory with its own Pulumi home and backend. */
export interface CliSession {
  /** The program directory (holds Pulumi.yaml). */
  readonly dir: string;
  /** The environment every command runs with. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Runs `pulumi <args>` in `dir`; resolves with the exit code (never rejects on a non-zero one).
   * `env` is added to this command's environment only.
   */
  pulumi(args: readonly string[], options?: { echo?: boolean; env?: Readonly<Record<string, string>> }): Promise<CliResult>;
  /** Removes the Pulumi home and backend (not the program directory). */
  close(): void;
}

/**
 * Throws unless the CLI's bin directory holds a Node.js language host (scripts/ensure-pulumi builds
 * it), which every suite that runs `pulumi` in a program directory needs.
 */
export function requireLanguageHost(): void {
  if (!fs.existsSync(path.join(pulumiBinDir(), "pulumi-language-nodejs"))) {
    throw new Error("no pulumi-language-nodejs next to the CLI: scripts/ensure-pulumi builds it from its source beside the repository");
  }
}

/** Quotes an argument for the echoed command line when it needs it. */
const shellWord = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

/**
 * Opens a CLI session on `dir`. `secrets` are values never echoed (they are replaced by `[secret]`
 * in the printed command line); `extraEnv` is added to every command's environment.
 */
export function openCliSession(
  dir: string,
  options: { secrets?: readonly string[]; extraEnv?: Readonly<Record<string, string>>; write?: (text: string) => void } = {},
): CliSession {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "adplatform-cli-"));
  const backendDir = path.join(stateDir, "backend");
  fs.mkdirSync(backendDir, { recursive: true });
  fs.mkdirSync(path.join(stateDir, "home"), { recursive: true });
  const env = { ...pulumiEnv(stateDir, backendDir), ...options.extraEnv };
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const hide = (arg: string) => (options.secrets?.includes(arg) ? "[secret]" : shellWord(arg));
  const pulumi = path.join(pulumiBinDir(), "pulumi");
  return {
    dir,
    env,
    pulumi(args, { echo = false, env: commandEnv = {} } = {}) {
      if (echo) write(`\n$ pulumi ${args.map(hide).join(" ")}\n`);
      return new Promise((resolve, reject) => {
        const child = spawn(pulumi, [...args], {
          cwd: dir,
          env: { ...process.env, ...env, ...commandEnv },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (echo) write(chunk.toString());
        });
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          if (echo) write(chunk.toString());
        });
        child.on("error", reject);
        child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
      });
    },
    close() {
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A TypeScript program for `writeTypeScriptProgram`. */
export interface TypeScriptProgram {
  /** Project name, in Pulumi.yaml and package.json. */
  readonly name: string;
  /** Project description, in Pulumi.yaml. */
  readonly description: string;
  /** The text of `index.ts`. */
  readonly index: string;
  /** `dependencies` of package.json. */
  readonly dependencies?: Readonly<Record<string, string>>;
  /** `devDependencies` of package.json. */
  readonly devDependencies?: Readonly<Record<string, string>>;
}

/**
 * Writes a program directory as `pulumi new typescript` lays it out: Pulumi.yaml (runtime nodejs,
 * npm), package.json with `main: index.ts`, tsconfig.json and index.ts. Installing or linking the
 * dependencies is left to the caller.
 */
export function writeTypeScriptProgram(dir: string, program: TypeScriptProgram): void {
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${program.name}\ndescription: ${program.description}\nruntime:\n  name: nodejs\n  options:\n    packagemanager: npm\n`,
  );
  const packageJson = {
    name: program.name,
    main: "index.ts",
    ...(program.devDependencies ? { devDependencies: program.devDependencies } : {}),
    ...(program.dependencies ? { dependencies: program.dependencies } : {}),
  };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(packageJson, null, 2));
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          outDir: "bin",
          target: "es2020",
          // TypeScript 6 refuses moduleResolution "node" (node10) unless told to ignore deprecations.
          module: "node16",
          moduleResolution: "node16",
          sourceMap: true,
          experimentalDecorators: true,
          pretty: true,
          noFallthroughCasesInSwitch: true,
          noImplicitReturns: true,
          forceConsistentCasingInFileNames: true,
        },
        files: ["index.ts"],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(dir, "index.ts"), program.index);
}

/** What a TypeScript program of this package needs from `node_modules`, besides the package. */
const PROGRAM_DEPENDENCIES = ["@pulumi", "typescript", path.join("@types", "node")];

/**
 * Makes a program directory anywhere (outside the repository too) resolve `pulumi-adplatform` and
 * what a TypeScript program needs, without an install: `<dir>/node_modules` gets links to this
 * repository (`linkPackage`: the built package) and to the repository's own `@pulumi`, `typescript`
 * and `@types/node`. Node loads a module by its real path, so the program and the package load one
 * and the same `@pulumi/pulumi`, as one install would give them. For the package as users install
 * it, see the npm pack tarball in tests/e2e/userPath.test.ts.
 */
export function linkRepositoryPackage(dir: string): void {
  linkPackage(dir);
  for (const dependency of PROGRAM_DEPENDENCIES) {
    const link = path.join(dir, "node_modules", dependency);
    if (fs.existsSync(link)) continue;
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", dependency), link, "dir");
  }
}
