/**
 * What an executable is, read from its headers alone, for the three formats the engine's platforms run:
 * ELF (linux), Mach-O (darwin) and PE (windows). `npm run dist` checks every executable it writes with
 * it, and tests/e2e/distExecutables.test.ts checks the archives' executables, so that an archive for a
 * machine this one cannot run still holds what that machine runs.
 *
 * Also the one edit of Node.js's binaries the single executables need before the application goes in:
 * removing the signature Node.js's macOS and Windows binaries carry, which injecting would leave wrong
 * (a macOS binary whose pages no longer match its signature is killed when it runs; without one an
 * x86_64 binary runs, and Windows runs an unsigned executable as any other).
 */

/** A file format and the processor its code is for. */
export interface ExecutableFormat {
  readonly format: "elf" | "mach-o" | "pe";
  readonly arch: "x64" | "arm64";
}

/** The resource Node.js looks for in a single executable (`NODE_SEA_BLOB`), and its fuse. */
export const SEA_RESOURCE = "NODE_SEA_BLOB";
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** The Mach-O segment postject puts the resource in (`--macho-segment-name`). */
export const SEA_MACHO_SEGMENT = "NODE_SEA";
/** The first four bytes of every blob `node --experimental-sea-config` writes (src/node_sea.h, `kMagic`). */
const SEA_BLOB_MAGIC = 0x0143da20;

// ELF: e_ident[EI_CLASS] 2 = 64-bit, [EI_DATA] 1 = little-endian; e_machine 62 = x86-64, 183 = AArch64.
const ELF_MACHINES: Record<number, ExecutableFormat["arch"]> = { 62: "x64", 183: "arm64" };
// Mach-O: MH_MAGIC_64; cputype CPU_TYPE_X86_64 (7 | ABI64), CPU_TYPE_ARM64 (12 | ABI64).
const MH_MAGIC_64 = 0xfeedfacf;
const MACHO_CPUS: Record<number, ExecutableFormat["arch"]> = { 0x01000007: "x64", 0x0100000c: "arm64" };
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
// PE: "MZ", e_lfanew at 0x3c, "PE\0\0"; Machine 0x8664 = AMD64, 0xaa64 = ARM64.
const PE_MACHINES: Record<number, ExecutableFormat["arch"]> = { 0x8664: "x64", 0xaa64: "arm64" };

/** The format and processor of `file`, or an error saying what its headers hold instead. */
export function executableFormat(file: Buffer): ExecutableFormat {
  if (file.length >= 64 && file.readUInt32BE(0) === 0x7f454c46) {
    if (file[4] !== 2 || file[5] !== 1) throw new Error("an ELF file that is not 64-bit little-endian");
    return { format: "elf", arch: known(ELF_MACHINES, file.readUInt16LE(18), "ELF e_machine") };
  }
  if (file.length >= 32 && file.readUInt32LE(0) === MH_MAGIC_64) {
    return { format: "mach-o", arch: known(MACHO_CPUS, file.readInt32LE(4), "Mach-O cputype") };
  }
  if (file.length >= 64 && file.toString("latin1", 0, 2) === "MZ") {
    const pe = file.readUInt32LE(0x3c);
    if (file.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error("an MZ file without a PE header");
    return { format: "pe", arch: known(PE_MACHINES, file.readUInt16LE(pe + 4), "PE Machine") };
  }
  throw new Error(`not an ELF, Mach-O or PE file (it starts ${file.subarray(0, 4).toString("hex")})`);
}

function known(table: Record<number, ExecutableFormat["arch"]>, value: number, field: string): ExecutableFormat["arch"] {
  const arch = table[value];
  if (arch === undefined) throw new Error(`${field} 0x${value.toString(16)} is neither x86-64 nor arm64`);
  return arch;
}

/** A Mach-O load command: where it starts and its `cmd`. */
interface LoadCommand {
  readonly offset: number;
  readonly cmd: number;
  readonly size: number;
}

function loadCommands(file: Buffer): LoadCommand[] {
  const commands: LoadCommand[] = [];
  let offset = 32;
  for (let i = 0; i < file.readUInt32LE(16); i++) {
    const size = file.readUInt32LE(offset + 4);
    commands.push({ offset, cmd: file.readUInt32LE(offset), size });
    offset += size;
  }
  return commands;
}

const cString = (file: Buffer, offset: number, length: number) => file.toString("latin1", offset, offset + length).replace(/\0+$/, "");

/**
 * `file` (a 64-bit Mach-O) without its code signature, as `codesign --remove-signature` leaves it: the
 * LC_CODE_SIGNATURE command gone and the signature, the last bytes of __LINKEDIT and of the file, cut off.
 * A file without a signature is returned as it is.
 */
export function withoutMachOSignature(file: Buffer): Buffer {
  if (executableFormat(file).format !== "mach-o") throw new Error("not a Mach-O file");
  const commands = loadCommands(file);
  const signature = commands.find((c) => c.cmd === LC_CODE_SIGNATURE);
  if (signature === undefined) return file;
  const dataOff = file.readUInt32LE(signature.offset + 8);
  const dataSize = file.readUInt32LE(signature.offset + 12);
  if (dataOff + dataSize !== file.length) throw new Error("the code signature is not at the end of the file");
  const linkedit = commands.find((c) => c.cmd === LC_SEGMENT_64 && cString(file, c.offset + 8, 16) === "__LINKEDIT");
  if (linkedit === undefined) throw new Error("a signed Mach-O file without __LINKEDIT");
  const out = Buffer.from(file.subarray(0, dataOff));
  // The later commands move up over the signature's; the header counts one command fewer.
  const end = 32 + out.readUInt32LE(20);
  out.copy(out, signature.offset, signature.offset + signature.size, end);
  out.fill(0, end - signature.size, end);
  out.writeUInt32LE(out.readUInt32LE(16) - 1, 16);
  out.writeUInt32LE(out.readUInt32LE(20) - signature.size, 20);
  const linkeditOffset = linkedit.offset > signature.offset ? linkedit.offset - signature.size : linkedit.offset;
  const fileoff = Number(out.readBigUInt64LE(linkeditOffset + 40));
  out.writeBigUInt64LE(BigInt(dataOff - fileoff), linkeditOffset + 48);
  return out;
}

/**
 * `file` (a PE) without its Authenticode signature, as `signtool remove /s` leaves it: the certificate
 * table's directory entry cleared and the certificates, the last bytes of the file, cut off. Node.js's
 * node.exe is signed; the injected executable would otherwise carry a signature that no longer matches.
 */
export function withoutPeSignature(file: Buffer): Buffer {
  if (executableFormat(file).format !== "pe") throw new Error("not a PE file");
  const entry = peSecurityDirectory(file);
  const offset = file.readUInt32LE(entry);
  const size = file.readUInt32LE(entry + 4);
  if (size === 0) return file;
  if (offset + size !== file.length) throw new Error("the Authenticode signature is not at the end of the file");
  const out = Buffer.from(file.subarray(0, offset));
  out.writeBigUInt64LE(0n, entry);
  return out;
}

/** Where the PE's IMAGE_DIRECTORY_ENTRY_SECURITY (a file offset and a size) is. */
function peSecurityDirectory(file: Buffer): number {
  const optional = file.readUInt32LE(0x3c) + 24;
  const directories = optional + (file.readUInt16LE(optional) === 0x20b ? 112 : 96); // PE32+ or PE32
  return directories + 4 * 8;
}

/** Whether a Mach-O file carries a code signature, or a PE an Authenticode one. */
export function isSigned(file: Buffer): boolean {
  const { format } = executableFormat(file);
  if (format === "pe") return file.readUInt32LE(peSecurityDirectory(file) + 4) !== 0;
  if (format === "mach-o") return loadCommands(file).some((c) => c.cmd === LC_CODE_SIGNATURE);
  return false; // ELF: no signature a loader checks
}

/**
 * The single-executable blob `file` holds, where Node.js looks for it: an ELF note named
 * NODE_SEA_BLOB, the Mach-O section __NODE_SEA_BLOB of segment NODE_SEA, or the PE resource
 * RT_RCDATA/NODE_SEA_BLOB; and the fuse set, without which Node.js does not look. Undefined without either.
 */
export function seaBlob(file: Buffer): Buffer | undefined {
  if (file.indexOf(`${SEA_FUSE}:1`, 0, "latin1") < 0) return undefined;
  const blob = { elf: elfNote, "mach-o": machOSection, pe: peResource }[executableFormat(file).format](file);
  return blob !== undefined && blob.length >= 8 && blob.readUInt32LE(0) === SEA_BLOB_MAGIC ? blob : undefined;
}

function elfNote(file: Buffer): Buffer | undefined {
  const phoff = Number(file.readBigUInt64LE(32));
  const phentsize = file.readUInt16LE(54);
  for (let i = 0; i < file.readUInt16LE(56); i++) {
    const ph = phoff + i * phentsize;
    if (file.readUInt32LE(ph) !== 4) continue; // PT_NOTE
    const start = Number(file.readBigUInt64LE(ph + 8));
    const end = start + Number(file.readBigUInt64LE(ph + 32));
    for (let note = start; note + 12 <= end;) {
      const nameSize = file.readUInt32LE(note);
      const descSize = file.readUInt32LE(note + 4);
      const desc = note + 12 + align4(nameSize);
      if (cString(file, note + 12, nameSize) === SEA_RESOURCE) return file.subarray(desc, desc + descSize);
      note = desc + align4(descSize);
    }
  }
  return undefined;
}

const align4 = (n: number) => (n + 3) & ~3;

function machOSection(file: Buffer): Buffer | undefined {
  for (const c of loadCommands(file)) {
    if (c.cmd !== LC_SEGMENT_64 || cString(file, c.offset + 8, 16) !== SEA_MACHO_SEGMENT) continue;
    for (let i = 0; i < file.readUInt32LE(c.offset + 64); i++) {
      const section = c.offset + 72 + i * 80;
      if (cString(file, section, 16) !== `__${SEA_RESOURCE}`) continue;
      const offset = file.readUInt32LE(section + 48);
      return file.subarray(offset, offset + Number(file.readBigUInt64LE(section + 40)));
    }
  }
  return undefined;
}

/** The data of RT_RCDATA (10) / NODE_SEA_BLOB / first language in the PE's resource directory. */
function peResource(file: Buffer): Buffer | undefined {
  const pe = file.readUInt32LE(0x3c);
  const sections = pe + 24 + file.readUInt16LE(pe + 20);
  const rsrc = Array.from({ length: file.readUInt16LE(pe + 6) }, (_, i) => sections + i * 40).find((s) => cString(file, s, 8) === ".rsrc");
  if (rsrc === undefined) return undefined;
  const rva = file.readUInt32LE(rsrc + 12);
  const raw = file.readUInt32LE(rsrc + 20);
  const at = (r: number) => raw + (r - rva);
  // Directory entries: named ones first, then by id; each {name or id, offset (high bit: a subdirectory)}.
  const entries = (dir: number) =>
    Array.from({ length: file.readUInt16LE(raw + dir + 12) + file.readUInt16LE(raw + dir + 14) }, (_, i) => {
      const entry = raw + dir + 16 + i * 8;
      const name = file.readUInt32LE(entry);
      const label =
        name & 0x80000000
          ? file.toString(
              "utf16le",
              raw + (name & 0x7fffffff) + 2,
              raw + (name & 0x7fffffff) + 2 + 2 * file.readUInt16LE(raw + (name & 0x7fffffff)),
            )
          : name;
      return { label, target: file.readUInt32LE(entry + 4) & 0x7fffffff };
    });
  const type = entries(0).find((e) => e.label === 10);
  const named = type && entries(type.target).find((e) => e.label === SEA_RESOURCE);
  const language = named && entries(named.target)[0];
  if (language === undefined) return undefined;
  const data = raw + language.target;
  return file.subarray(at(file.readUInt32LE(data)), at(file.readUInt32LE(data)) + file.readUInt32LE(data + 4));
}
