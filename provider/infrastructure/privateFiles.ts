/**
 * Directories and files only this user can reach, made without following links (limiter state, create
 * journal). They live where another local user may come first (`/dev/shm`, the temp directory) and plant
 * links at our names, so a directory must be ours and writable by no one else, and a link fails the open.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { AdPlatformError } from "../errors";

function unsafeDirectory(directory: string, reason: string): AdPlatformError {
  return new AdPlatformError("ADP_ERR_UNSAFE_DIRECTORY", `${directory} ${reason}, so another local user could plant links in it`);
}

// Windows has neither flag nor uids; its temp directory is per user already.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Undefined where there are no uids (Windows). */
export function currentUid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

/**
 * Makes `directory` (0700, with parents) unless it exists, then checks (after the make, so one made first
 * is caught too) that it is no link, ours, writable by neither group nor others; else `ADP_ERR_UNSAFE_DIRECTORY`.
 */
export function ensurePrivateDirectory(directory: string): void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const stats = lstatSync(directory);
  if (stats.isSymbolicLink()) throw unsafeDirectory(directory, "is a symbolic link");
  if (!stats.isDirectory()) throw unsafeDirectory(directory, "is not a directory");
  const uid = currentUid();
  if (uid === undefined) return;
  if (stats.uid !== uid) throw unsafeDirectory(directory, `is owned by uid ${stats.uid}, not by this user (uid ${uid})`);
  if ((stats.mode & 0o022) !== 0) {
    const mode = (stats.mode & 0o777).toString(8).padStart(4, "0");
    throw unsafeDirectory(directory, `is writable by group or others (mode ${mode})`);
  }
}

/** Creates `file` for writing, mode 0600; fails (EEXIST) when anything, a link (even dangling) included, has its name. */
export function createNewFile(file: string): number {
  return openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | NOFOLLOW, 0o600);
}

/** The text of `file`; fails (ELOOP) when it is a link. */
export function readFileNoLink(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
  try {
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Writes `name` in a private `directory` so a crash leaves the old file or the new: temp file, fsync, rename, fsync of the directory. */
export function writeFileAtomically(directory: string, name: string, text: string): void {
  const temporary = join(directory, `.${name}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const fd = createNewFile(temporary);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, join(directory, name));
  try {
    const dir = openSync(directory, "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some file systems cannot sync a directory; the rename is still atomic there.
  }
}
