/**
 * The Node.js and `@pulumi/pulumi` versions the package states are true: every runtime dependency
 * installs on the lowest Node.js `engines` allows, the `@pulumi/pulumi` tested here (the dev
 * dependency) is inside the supported peer range and installs on that Node.js too, and the
 * templates and the README's install line pin that same version, since npm's newest
 * `@pulumi/pulumi` may declare a newer Node.js than the one we support (EBADENGINE).
 */
import * as fs from "node:fs";
import * as path from "node:path";

const REPO_ROOT = path.resolve(__dirname, "..", "..");

interface PackageJson {
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as PackageJson;
const pkg = readJson(path.join(REPO_ROOT, "package.json"));
const installed = (name: string) => readJson(path.join(REPO_ROOT, "node_modules", name, "package.json"));

type Version = [number, number, number];

function parse(version: string): Version {
  const parts = version.split(".").map(Number);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * The lowest version `range` allows. Only the forms the package and its dependencies use are read
 * (`>=X[.Y[.Z]]`, `^X.Y.Z`); anything else fails the test, to be taught here rather than guessed.
 */
function lowest(range: string): Version {
  const match = /^(?:>=|\^)\s*(\d+(?:\.\d+){0,2})$/.exec(range.trim());
  if (!match) throw new Error(`range ${JSON.stringify(range)} is not read by this test: teach lowest() its form`);
  return parse(match[1]!);
}

/** Whether `version` is inside `range` (`^X.Y.Z` with X > 0, or `>=X.Y.Z`). */
function inside(version: string, range: string): boolean {
  const v = parse(version);
  const low = lowest(range);
  return compare(v, low) >= 0 && (!range.trim().startsWith("^") || v[0] === low[0]);
}

/** Whether the package `engines` of a dependency allows Node.js `node` (no `engines`: any). */
function allowsNode(dependency: PackageJson, node: Version): boolean {
  const range = dependency.engines?.node;
  return range === undefined || compare(node, lowest(range)) >= 0;
}

const lowestNode = lowest(pkg.engines!.node!);
const testedPulumi = pkg.devDependencies!["@pulumi/pulumi"]!;

test("every runtime dependency installs on the lowest Node.js our engines allow", () => {
  const refusing = Object.keys(pkg.dependencies ?? {}).filter((name) => !allowsNode(installed(name), lowestNode));
  expect(refusing).toEqual([]);
});

test("the @pulumi/pulumi we test with is exact, inside the supported peer range, and installs on that Node.js", () => {
  expect(testedPulumi).toMatch(/^\d+\.\d+\.\d+$/);
  expect(installed("@pulumi/pulumi").version).toBe(testedPulumi);
  expect(inside(testedPulumi, pkg.peerDependencies!["@pulumi/pulumi"]!)).toBe(true);
  expect(allowsNode(installed("@pulumi/pulumi"), lowestNode)).toBe(true);
  // The peer range starts at the tested version: nothing older is tested.
  expect(lowest(pkg.peerDependencies!["@pulumi/pulumi"]!)).toEqual(parse(testedPulumi));
});

test("the TypeScript template pins that @pulumi/pulumi and states our engines", () => {
  const template = readJson(path.join(REPO_ROOT, "templates", "typescript", "package.json"));
  expect(template.dependencies?.["@pulumi/pulumi"]).toBe(testedPulumi);
  expect(template.engines?.node).toBe(pkg.engines!.node);
  expect(inside(pkg.version, template.dependencies!["pulumi-adplatform"]!)).toBe(true);
});

test("the examples users copy pin that @pulumi/pulumi", () => {
  const examples = path.join(REPO_ROOT, "examples");
  const pins = fs
    .readdirSync(examples)
    .filter((name) => fs.existsSync(path.join(examples, name, "package.json")))
    .map((name) => [name, readJson(path.join(examples, name, "package.json")).dependencies?.["@pulumi/pulumi"]]);
  expect(pins.length).toBeGreaterThan(0);
  expect(pins.filter(([, pin]) => pin !== testedPulumi)).toEqual([]);
});

test("the README says which Node.js to use and which @pulumi/pulumi to pin on it", () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const [major, minor, patch] = lowestNode;
  expect(readme).toContain(`Node.js ${major}.${minor}.${patch} or later`);
  expect(readme).toContain(`@pulumi/pulumi@${testedPulumi}`);
});
