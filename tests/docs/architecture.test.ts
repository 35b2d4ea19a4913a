/**
 * docs/ARCHITECTURE.md (and the pages it hands detail to) names files and folders in code spans (`provider/client/`, `limiter.ts`,
 * `<kind>/lifecycle.ts`); a file moved or renamed leaves the map pointing nowhere, which no link
 * check finds. Every span that is a repository path must name something that exists: a path from
 * the repository root or from provider/, or, for a bare name, a file below the folder of the
 * section it is in (`### provider/client/`), or below provider/, sdk/ or simulator/ outside such
 * sections. `<name>` stands for any one folder and `*` for any part of a name. And every folder of
 * provider/ has its section in the code map.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(__dirname, "../..");
const DOC = join(root, "docs", "ARCHITECTURE.md");
/** The pages the code map hands its detail to, which name files the same way. */
const DETAIL_PAGES = ["rate-limiter.md", "create-journal.md"].map((name) => join(root, "docs", name));

/** Every file and folder below `dir` (relative to the root, folders ending in `/`), build output and dependencies left out. */
function tree(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name === "bin") return [];
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? [`${path}/`, ...tree(path)] : [path];
  });
}

const PATHS = ["provider", "sdk", "simulator"].flatMap(tree);

/** A matcher of paths that end with `span` (whole segments), `<name>` standing for one segment, `*` for part of one. */
function endingWith(span: string): RegExp {
  const pattern = span
    .split("/")
    .map((segment) =>
      /^<[\w-]+>$/.test(segment)
        ? "[^/]+"
        : segment
            .split("*")
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
            .join("[^/]*"),
    )
    .join("/");
  return new RegExp(`(^|/)${pattern}$`);
}

/** Whether `span` is a path in the repository rather than a package, an absolute path or a file-name pattern. */
function isRepositoryPath(span: string): boolean {
  if (!/^[\w.<>*/-]+$/.test(span) || span.startsWith("/") || span.startsWith("pulumi-adplatform")) return false;
  if (!span.includes("/") && !/\.(ts|json|ya?ml|md)$/.test(span)) return false;
  // `<hash>.v2.json` is a pattern of names, not a file of ours: a placeholder must be a whole segment.
  return span.split("/").every((segment) => !segment.includes("<") || /^<[\w-]+>$/.test(segment));
}

/** Whether `span`, named in the section about `folder` (if any), names something that exists. */
function exists(span: string, folder: string | undefined): boolean {
  if (!span.includes("<") && !span.includes("*") && (existsSync(join(root, span)) || existsSync(join(root, "provider", span)))) {
    return true;
  }
  const matcher = endingWith(span.replace(/\/$/, ""));
  const candidates = folder === undefined ? PATHS : PATHS.filter((path) => path.startsWith(folder));
  return candidates.some((path) => matcher.test(path.replace(/\/$/, "")));
}

interface Named {
  readonly span: string;
  readonly line: number;
  readonly folder?: string;
}

/** The code spans of the doc that are repository paths, each with the folder of its section. */
function namedPaths(markdown: string): Named[] {
  const named: Named[] = [];
  let folder: string | undefined;
  let fenced = false;
  markdown.split("\n").forEach((text, index) => {
    if (/^(```|~~~)/.test(text)) fenced = !fenced;
    if (fenced) return;
    const heading = /^(#{2,6})\s/.exec(text);
    if (heading) {
      const first = /`(provider\/[\w/]+\/)`/.exec(text);
      folder = heading[1] === "###" && first && !text.includes("`, `") ? first[1] : undefined;
    }
    for (const [, span] of text.matchAll(/`([^`\n]+)`/g)) {
      if (isRepositoryPath(span)) named.push({ span, line: index + 1, folder });
    }
  });
  return named;
}

const markdown = readFileSync(DOC, "utf8");

it.each([DOC, ...DETAIL_PAGES])("%s names only files and folders that exist", (page) => {
  const missing = namedPaths(readFileSync(page, "utf8"))
    .filter(({ span, folder }) => !exists(span, folder))
    .map(({ span, line, folder }) => `line ${line}: ${span}${folder === undefined ? "" : ` (in ${folder})`}`);
  expect(missing).toEqual([]);
});

it("has a section for every folder of provider/", () => {
  const folders = readdirSync(join(root, "provider"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const sections = [...markdown.matchAll(/^### `(provider\/\w+)\/`/gm)].map((match) => match[1]);
  expect(folders.map((entry) => `provider/${entry.name}`).filter((folder) => !sections.includes(folder))).toEqual([]);
});

it("tells a path that is not there from one that is", () => {
  const named = (text: string) => namedPaths(text).filter(({ span, folder }) => !exists(span, folder));
  expect(named("### `provider/client/`\n\n`apiClient.ts`, `retryPolicy.ts`, `client/explicitAccount.ts`")).toEqual([]);
  expect(named("### `provider/client/`\n\n`settings.ts`").map(({ span }) => span)).toEqual(["settings.ts"]);
  expect(named("`provider/resources/<kind>/definition.ts`, `sdk/dataSources/get*.ts`, `PulumiPlugin.yaml`")).toEqual([]);
  expect(named("`provider/nowhere.ts` and `gone/`").map(({ span }) => span)).toEqual(["provider/nowhere.ts", "gone/"]);
  expect(namedPaths("`@pulumi/pulumi`, `/dev/shm/x/`, `<hash>.v2.json`, `pulumi-adplatform/provider`")).toEqual([]);
});
