/**
 * The plugin archives of every platform, by their contents alone (this machine runs only its own; the
 * no-Node.js runs are distPluginArchive.test.ts and distDownload.test.ts): each single-executable
 * archive holds one executable whose headers say the platform's format and processor (ELF e_machine,
 * Mach-O cputype, PE Machine), unsigned, holding the one application blob where Node.js looks for it
 * with its fuse set; the darwin-arm64 archive holds the launcher and the bundle; SHA256SUMS names each.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { executableFormat, isSigned, seaBlob, type ExecutableFormat } from "../../scripts/dist/executableFormat";
import { VERSION, distFile, freshDir } from "./distArtifacts";

const archive = (target: string) => `pulumi-resource-adplatform-v${VERSION}-${target}.tar.gz`;

const SINGLE_EXECUTABLES: readonly { target: string; executable: string; expected: ExecutableFormat }[] = [
  { target: "linux-amd64", executable: "pulumi-resource-adplatform", expected: { format: "elf", arch: "x64" } },
  { target: "linux-arm64", executable: "pulumi-resource-adplatform", expected: { format: "elf", arch: "arm64" } },
  { target: "darwin-amd64", executable: "pulumi-resource-adplatform", expected: { format: "mach-o", arch: "x64" } },
  { target: "windows-amd64", executable: "pulumi-resource-adplatform.exe", expected: { format: "pe", arch: "x64" } },
];

let dir: string;
const blobs = new Map<string, Buffer>();

/** The archive's entries, and the archive unpacked into its own directory. */
function unpack(target: string): { entries: string[]; root: string } {
  const root = path.join(dir, target);
  fs.mkdirSync(root);
  execFileSync("tar", ["-xzf", distFile(archive(target)), "-C", root]);
  const entries = execFileSync("tar", ["-tzf", distFile(archive(target))], { encoding: "utf8" })
    .trim()
    .split("\n")
    .sort();
  return { entries, root };
}

beforeAll(() => {
  dir = freshDir("adplatform-dist-executables-");
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(SINGLE_EXECUTABLES)("$target", ({ target, executable, expected }) => {
  it(`holds one unsigned ${expected.format} ${expected.arch} executable with the application inside`, () => {
    const { entries, root } = unpack(target);
    expect(entries).toEqual(["README.md", executable]);
    const file = path.join(root, executable);
    expect(fs.statSync(file).mode & 0o111).toBe(0o111);
    const bytes = fs.readFileSync(file);
    expect(executableFormat(bytes)).toEqual(expected);
    expect(isSigned(bytes)).toBe(false);
    const blob = seaBlob(bytes);
    expect(blob).toBeDefined();
    blobs.set(target, blob!);
  });
});

it("every single executable holds the same application", () => {
  const [first, ...others] = SINGLE_EXECUTABLES.map(({ target }) => blobs.get(target));
  expect(first).toBeDefined();
  for (const other of others) expect(other?.equals(first!)).toBe(true);
});

it("darwin-arm64 holds the launcher and the bundle it runs with the Node.js on PATH", () => {
  const { entries, root } = unpack("darwin-arm64");
  expect(entries).toEqual(["README.md", "lib/", "lib/provider.js", "lib/start.js", "pulumi-resource-adplatform"]);
  expect(fs.readFileSync(path.join(root, "pulumi-resource-adplatform"), "utf8")).toMatch(/^#!\/bin\/sh\n/);
});

it("SHA256SUMS names every archive with its checksum", () => {
  const sums = new Map(
    fs
      .readFileSync(distFile("SHA256SUMS"), "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(/ {2}/).reverse() as [string, string]),
  );
  for (const target of [...SINGLE_EXECUTABLES.map((s) => s.target), "darwin-arm64"]) {
    const sum = createHash("sha256")
      .update(fs.readFileSync(distFile(archive(target))))
      .digest("hex");
    expect([archive(target), sums.get(archive(target))]).toEqual([archive(target), sum]);
  }
});
