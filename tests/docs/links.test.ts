/**
 * Every relative link of the README and of docs/ (the generated reference included) leads
 * somewhere: the file or folder exists, and an anchor (`page.md#section`, `#section`) names a
 * heading of the target page as GitHub and the Pulumi Registry slug it. Pages move and headings get
 * renamed; a link left behind is found here rather than by a reader.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(__dirname, "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

/** The text outside fenced code blocks and inline code spans, where links and headings are. */
function prose(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
    .split("\n")
    .map((line) => line.replace(/`[^`\n]*`/g, (span) => (/^#{1,6}\s/.test(line) ? span : "")))
    .join("\n");
}

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // a link's text
    .replace(/<[^>]+>/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a page defines: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
function anchorsOf(path: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = prose(readFileSync(path, "utf8"));
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** The relative link targets of a page (inline links and reference definitions). */
function linksOf(path: string): string[] {
  const text = prose(readFileSync(path, "utf8"));
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]);
  return [...inline, ...references].filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Why `target`, linked from `from`, leads nowhere; undefined when it leads somewhere. */
function brokenReason(from: string, target: string): string | undefined {
  const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
  const file = pathPart === "" ? from : resolve(dirname(from), decodeURIComponent(pathPart));
  if (!existsSync(file)) return "no such file";
  if (anchor === undefined || anchor === "") return undefined;
  if (statSync(file).isDirectory() || !file.endsWith(".md")) return "an anchor into something that is not a markdown page";
  return anchorsOf(file).has(decodeURIComponent(anchor).toLowerCase()) ? undefined : `no heading #${anchor} there`;
}

const pages = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];

it.each(pages.map((page) => [relative(root, page), page]))("finds every relative link of %s leading somewhere", (_name, page) => {
  const broken = linksOf(page).flatMap((target) => {
    const reason = brokenReason(page, target);
    return reason === undefined ? [] : [`${target}: ${reason}`];
  });
  expect(broken).toEqual([]);
});

it("reads links and anchors the way GitHub does", () => {
  expect(slug('Decisions where the spec says "not shown"')).toBe("decisions-where-the-spec-says-not-shown");
  expect(slug("The `account` argument: CI and rate limits")).toBe("the-account-argument-ci-and-rate-limits");
  expect(slug("Where the limits directory lives, and how it is protected")).toBe(
    "where-the-limits-directory-lives-and-how-it-is-protected",
  );
  expect(linksOf(join(root, "README.md"))).toContain("docs/_index.md");
});
