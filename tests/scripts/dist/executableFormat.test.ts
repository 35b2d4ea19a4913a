/**
 * Reading executables by their headers (scripts/dist/executableFormat.ts): this machine's own Node.js
 * binary, files that are no executable or for another processor, and the removal of a Mach-O code
 * signature and of a PE Authenticode signature on files laid out as those formats lay them out. The
 * archives' real executables of every platform are checked in tests/e2e/distExecutables.test.ts.
 */
import * as fs from "node:fs";
import { executableFormat, isSigned, seaBlob, withoutMachOSignature, withoutPeSignature } from "../../../scripts/dist/executableFormat";

it("reads this machine's Node.js binary as its format and processor, with no application inside", () => {
  const node = fs.readFileSync(process.execPath);
  const format = { linux: "elf", darwin: "mach-o", win32: "pe" }[process.platform as string];
  expect(executableFormat(node)).toEqual({ format, arch: process.arch });
  expect(seaBlob(node)).toBeUndefined();
});

it("refuses a file that is no ELF, Mach-O or PE, and a processor that is neither x86-64 nor arm64", () => {
  expect(() => executableFormat(Buffer.from("#!/bin/sh\nexec node start.js\n"))).toThrow(
    "not an ELF, Mach-O or PE file (it starts 23212f62)",
  );
  const elf = Buffer.alloc(64);
  elf.writeUInt32BE(0x7f454c46, 0);
  elf[4] = 2;
  elf[5] = 1;
  elf.writeUInt16LE(40, 18); // EM_ARM, 32-bit ARM
  expect(() => executableFormat(elf)).toThrow("ELF e_machine 0x28 is neither x86-64 nor arm64");
});

/** A 64-bit x86_64 Mach-O: __TEXT, __LINKEDIT (file bytes 4096-8191, the last 1024 the signature), LC_CODE_SIGNATURE, LC_MAIN. */
function signedMachO(): Buffer {
  const file = Buffer.alloc(8192, 0xab);
  file.fill(0, 0, 4096);
  file.writeUInt32LE(0xfeedfacf, 0);
  file.writeInt32LE(0x01000007, 4);
  const commands: Buffer[] = [];
  const segment = (name: string, fileoff: number, filesize: number) => {
    const c = Buffer.alloc(72);
    c.writeUInt32LE(0x19, 0);
    c.writeUInt32LE(72, 4);
    c.write(name, 8, "latin1");
    c.writeBigUInt64LE(BigInt(fileoff), 24); // vmaddr
    c.writeBigUInt64LE(BigInt(filesize), 32); // vmsize
    c.writeBigUInt64LE(BigInt(fileoff), 40);
    c.writeBigUInt64LE(BigInt(filesize), 48);
    return c;
  };
  commands.push(segment("__TEXT", 0, 4096), segment("__LINKEDIT", 4096, 4096));
  const signature = Buffer.alloc(16);
  signature.writeUInt32LE(0x1d, 0);
  signature.writeUInt32LE(16, 4);
  signature.writeUInt32LE(8192 - 1024, 8);
  signature.writeUInt32LE(1024, 12);
  const main = Buffer.alloc(24);
  main.writeUInt32LE(0x80000028, 0);
  main.writeUInt32LE(24, 4);
  commands.push(signature, main);
  Buffer.concat(commands).copy(file, 32);
  file.writeUInt32LE(commands.length, 16);
  file.writeUInt32LE(
    commands.reduce((sum, c) => sum + c.length, 0),
    20,
  );
  return file;
}

it("removes a Mach-O code signature as codesign --remove-signature does", () => {
  const signed = signedMachO();
  expect(isSigned(signed)).toBe(true);
  const unsigned = withoutMachOSignature(signed);
  expect(isSigned(unsigned)).toBe(false);
  expect(unsigned.length).toBe(8192 - 1024);
  expect([unsigned.readUInt32LE(16), unsigned.readUInt32LE(20)]).toEqual([3, 72 + 72 + 24]);
  // LC_MAIN moved up over the signature's command; __LINKEDIT ends where the file now does.
  expect(unsigned.readUInt32LE(32 + 144)).toBe(0x80000028);
  expect(unsigned.subarray(32 + 168, 32 + 184).every((b) => b === 0)).toBe(true);
  expect(Number(unsigned.readBigUInt64LE(32 + 72 + 48))).toBe(4096 - 1024);
  expect(executableFormat(unsigned)).toEqual({ format: "mach-o", arch: "x64" });
  expect(withoutMachOSignature(unsigned)).toBe(unsigned);
});

/** A PE32+ AMD64 file of 1024 bytes whose last 256 are its certificate table. */
function signedPe(): Buffer {
  const file = Buffer.alloc(1024);
  file.write("MZ", 0, "latin1");
  file.writeUInt32LE(0x40, 0x3c);
  file.write("PE\0\0", 0x40, "latin1");
  file.writeUInt16LE(0x8664, 0x44);
  file.writeUInt16LE(240, 0x40 + 20); // SizeOfOptionalHeader
  file.writeUInt16LE(0x20b, 0x58); // PE32+
  file.writeUInt32LE(768, 0x58 + 112 + 32); // IMAGE_DIRECTORY_ENTRY_SECURITY: file offset
  file.writeUInt32LE(256, 0x58 + 112 + 36); // and size
  return file;
}

it("removes a PE's Authenticode signature as signtool remove /s does", () => {
  const signed = signedPe();
  expect(executableFormat(signed)).toEqual({ format: "pe", arch: "x64" });
  expect(isSigned(signed)).toBe(true);
  const unsigned = withoutPeSignature(signed);
  expect(isSigned(unsigned)).toBe(false);
  expect(unsigned.length).toBe(768);
  expect(withoutPeSignature(unsigned)).toBe(unsigned);
});
