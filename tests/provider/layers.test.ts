/**
 * The folders of provider/ are layers, and a module imports only from layers below its own (the
 * code map of docs/ARCHITECTURE.md): the limiter never imports the HTTP client, the client never
 * imports resources, data sources or faces; infrastructure serves them all and knows none. Each
 * folder has one entry, its index.ts: a module reaches another folder only through it, so what a
 * folder offers is what its index names. The journal's store
 * (resources/journal/store/) stores and decides nothing, so it imports nothing of the protocol or
 * the lifecycles. Read from the sources' relative imports.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(__dirname, "../..");
const provider = join(root, "provider");

/** Each folder's layer: a module may import from folders of a lower layer, and from its own folder. */
const LAYERS: Readonly<Record<string, number>> = {
  // The error family is the lowest: every layer throws it, the catalog's refusals included.
  errors: 0,
  catalog: 1,
  configuration: 1,
  wire: 2,
  infrastructure: 2,
  limiter: 3,
  client: 4,
  resources: 5,
  dataSources: 5,
  faces: 6,
};

/** Imports that cross a layer upwards and are known: none; an entry here names its way out. */
const KNOWN: ReadonlySet<string> = new Set<string>([]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * `from` → `to` (paths below provider/) for every relative import and re-export in `text`, the
 * source of `from`, into another folder of provider/.
 */
function crossings(from: string, text: string): Array<{ from: string; to: string }> {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/g)]
    .map((match) => relative(provider, resolve(provider, dirname(from), match[1])))
    .filter((to) => !to.startsWith("..") && to.split("/")[0] !== from.split("/")[0])
    .map((to) => ({
      from,
      to: existsSync(join(provider, to)) && statSync(join(provider, to)).isDirectory() ? `${to}/index.ts` : `${to}.ts`,
    }));
}

/** The crossings of a source file of provider/. */
const crossingsOf = (file: string) => crossings(relative(provider, file), readFileSync(file, "utf8"));

const folders = readdirSync(provider, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

it("gives every folder of provider/ a layer", () => {
  expect(folders.filter((folder) => LAYERS[folder] === undefined)).toEqual([]);
});

it("imports only from lower layers", () => {
  const upwards = folders
    .flatMap((folder) => sources(join(provider, folder)).flatMap(crossingsOf))
    .filter(({ from, to }) => !(LAYERS[to.split("/")[0]] < LAYERS[from.split("/")[0]]))
    .map(({ from, to }) => `${from} -> ${to}`)
    .filter((crossing) => !KNOWN.has(crossing));
  expect(upwards).toEqual([]);
});

it("reaches another folder only through its index.ts", () => {
  const deep = folders
    .flatMap((folder) => sources(join(provider, folder)).flatMap(crossingsOf))
    .filter(({ to }) => !/^[^/]+\/index\.ts$/.test(to))
    .map(({ from, to }) => `${from} -> ${to}`);
  expect(deep).toEqual([]);
});

it("keeps the journal's store below its protocol", () => {
  const store = "resources/journal/store";
  const outside = sources(join(provider, store))
    .flatMap((file) => {
      const from = relative(provider, file);
      return [...readFileSync(file, "utf8").matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/g)].map((match) => ({
        from,
        to: relative(provider, resolve(provider, dirname(from), match[1])),
      }));
    })
    .filter(({ to }) => !to.startsWith(`${store}/`) && !["infrastructure", "configuration", "errors"].includes(to.split("/")[0]))
    .map(({ from, to }) => `${from} -> ${to}`);
  expect(outside).toEqual([]);
});

it("reads the imports a module crosses layers with", () => {
  const text = [
    'import { a } from "./sibling";',
    'import {\n  b,\n  type C,\n} from "../../client";',
    'import type { D } from "../../catalog/types";',
    'export { e } from "../../infrastructure/redis";',
    'import { f } from "node:fs";',
    'const g = 1; // from "../../faces"',
  ].join("\n");
  expect(crossings("resources/lifecycle/x.ts", text)).toEqual([
    { from: "resources/lifecycle/x.ts", to: "client/index.ts" },
    { from: "resources/lifecycle/x.ts", to: "catalog/types.ts" },
    { from: "resources/lifecycle/x.ts", to: "infrastructure/redis.ts" },
  ]);
});
