/**
 * What `npm pack` puts in the package: the library (bin/provider, bin/sdk, bin/simulator), the
 * policy pack (bin/policy, and policy/ with what `pulumi preview --policy-pack` reads), the project
 * templates (templates/, which `pulumi new` reads from the installed package), the Python SDK's
 * source (sdks/python, which the Python template installs with pip), the user's guide with its
 * API reference (docs/, whose simulator.md `adplatform-simulator --help` names), the directory's
 * entry index.js, the README and package.json, and nothing else: no bench (built into build/ by its own tsconfig), no
 * source map naming a file the package does not hold, no require of a module users do not install.
 * Reads the bin/ of the build that `npm test` runs first (pretest); run `npm run build` before
 * running this file with jest directly.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { isBuiltin } from "node:module";
import * as path from "node:path";
import * as ts from "typescript";

jest.setTimeout(60_000);

const REPO_ROOT = path.resolve(__dirname, "..", "..");

interface PackageJson {
  name: string;
  main: string;
  types: string;
  exports: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as PackageJson;

/** The files `npm pack` would put in the tarball, as paths relative to the package root. */
function packedFiles(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    // --ignore-scripts: prepare would rebuild bin/ from scratch while other test files read it.
    execFile(
      "npm",
      ["pack", "--dry-run", "--json", "--ignore-scripts"],
      { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`npm pack --dry-run failed: ${err.message}\n${stderr}`));
        const [result] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
        resolve(result.files.map((file) => file.path));
      },
    );
  });
}

let files: string[];
let shipped: Set<string>;

beforeAll(async () => {
  files = await packedFiles();
  shipped = new Set(files);
});

test("the package holds the compiled library, the policy pack, the templates, the Python SDK, the user's guide, the README and package.json, and no bench code", () => {
  // The native plugin's schema is data the plugin imports (provider/faces/native/schema.ts).
  const library = /^bin\/(provider|sdk|simulator|policy)\/.+\.(js|d\.ts|js\.map)$|^bin\/provider\/faces\/native\/schema\.json$/;
  const policyPack = ["policy/PulumiPolicy.yaml", "policy/package.json", "policy/README.md", "policy/config.example.json"];
  const templates = /^templates\/(typescript|python|yaml)\/[^/]+$/;
  const pythonSdk = /^sdks\/python\/(pyproject\.toml|README\.md|pulumi_adplatform\/.+)$/;
  // The user's guide and its generated API reference (docs/), so an installed package carries them.
  const userGuide = /^docs\/.+\.md$/;
  const outside = files.filter(
    (file) =>
      !library.test(file) &&
      !templates.test(file) &&
      !pythonSdk.test(file) &&
      !userGuide.test(file) &&
      ![...policyPack, "index.js", "README.md", "package.json"].includes(file) &&
      !/^LICEN[SC]E/.test(file),
  );
  expect(outside).toEqual([]);
  expect(files.filter((file) => /bench|bottleneck/i.test(file))).toEqual([]);
  expect(files).toEqual(
    expect.arrayContaining([
      "README.md",
      "package.json",
      "templates/typescript/Pulumi.yaml",
      "templates/python/Pulumi.yaml",
      "templates/yaml/Pulumi.yaml",
      "sdks/python/pyproject.toml",
      "docs/simulator.md",
      "docs/_index.md",
      "docs/installation-configuration.md",
      "docs/reference/_index.md",
      "docs/reference/BidStrategy.md",
    ]),
  );
});

test("every entry point package.json names is in the package", () => {
  const targets = [pkg.main, pkg.types];
  for (const target of Object.values(pkg.exports)) targets.push(...(typeof target === "string" ? [target] : Object.values(target)));
  const missing = targets.map((target) => path.posix.normalize(target)).filter((target) => !shipped.has(target));
  expect(missing).toEqual([]);
});

test("the package directory's main entry is the SDK, as `require` by name gives it, outside Pulumi's plugin runner", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  expect(require(REPO_ROOT)).toBe(require(path.join(REPO_ROOT, "bin", "sdk", "index.js")));
});

test("every source map in the package carries the sources it names, or the package holds them", () => {
  const maps = files.filter((file) => file.endsWith(".js.map"));
  expect(maps.length).toBeGreaterThan(0);
  const unresolved: string[] = [];
  for (const map of maps) {
    const { file, sources, sourcesContent, sourceRoot } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, map), "utf8")) as {
      file: string;
      sources: string[];
      sourcesContent?: Array<string | null>;
      sourceRoot?: string;
    };
    // The map belongs to the script beside it, which is shipped too.
    expect(shipped.has(path.posix.join(path.posix.dirname(map), file))).toBe(true);
    sources.forEach((source, i) => {
      if (typeof sourcesContent?.[i] === "string") return;
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(map), sourceRoot ?? "", source));
      if (!shipped.has(resolved)) unresolved.push(`${map} -> ${source}`);
    });
  }
  expect(unresolved).toEqual([]);
});

/** The string literals passed to `require(...)` and `import(...)` in a compiled script. */
function requiredModules(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(path.join(REPO_ROOT, file), "utf8"),
    ts.ScriptTarget.ES2022,
    false,
    ts.ScriptKind.JS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      if ((ts.isIdentifier(callee) && callee.text === "require") || callee.kind === ts.SyntaxKind.ImportKeyword)
        found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test("the package's scripts require only Node built-ins, its own modules, and what it declares as a dependency or peer dependency", () => {
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
  const scripts = files.filter((file) => file.endsWith(".js"));
  expect(scripts.length).toBeGreaterThan(0);
  const undeclared: string[] = [];
  for (const script of scripts) {
    for (const specifier of requiredModules(script)) {
      if (specifier.startsWith(".")) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(script), specifier));
        if (![target, `${target}.js`, `${target}/index.js`].some((candidate) => shipped.has(candidate)))
          undeclared.push(`${script} -> ${specifier}`);
        continue;
      }
      if (isBuiltin(specifier)) continue;
      const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
      if (name !== pkg.name && !declared.has(name)) undeclared.push(`${script} -> ${specifier}`);
    }
  }
  expect(undeclared).toEqual([]);
});

test("the policy pack's entry point, named by policy/package.json, is in the package", () => {
  const { main } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "policy", "package.json"), "utf8")) as { main: string };
  expect(shipped.has(path.posix.normalize(path.posix.join("policy", main)))).toBe(true);
  expect(shipped.has("policy/PulumiPolicy.yaml")).toBe(true);
});
