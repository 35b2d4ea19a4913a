/**
 * Directories and files only this user can reach, made without following links: what the limiter's
 * state files and the create journal are written through.
 *
 * Both live in places another local user may reach first: `/dev/shm` and the OS temp directory are
 * writable by everyone and empty after a reboot, and a configured directory may be anyone's. A
 * directory someone else owns or may write into lets them plant links at the names we write, and a
 * write would then land in any file the deploying user can write. So a directory is used only when
 * it is a real directory (not a link), owned by this user and writable by no one else; and inside
 * it, a file is opened so that a link at its name fails the open instead of being followed.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { AdPlatformError } from "../errors";

/** A directory this module refuses to use, and why (its users say what to do instead). */
function unsafeDirectory(directory: string, reason: string): AdPlatformError {
  return new AdPlatformError("ADP_ERR_UNSAFE_DIRECTORY", `${directory} ${reason}, so another local user could plant links in it`);
}

// Windows has neither flag nor uids; its temp directory is per user already.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Open flags of a new file: created here or failing (a link, even a dangling one, is never followed). */
export const CREATE_NEW = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | NOFOLLOW;
/** Open flags of a read that fails on a link instead of following it. */
const READ_NO_LINK = constants.O_RDONLY | NOFOLLOW;

/** This process's user id, or undefined where there are none (Windows). */
export function currentUid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

/**
 * Makes `directory` (mode 0700, with missing parents) unless it exists, then checks it is one this
 * user alone controls: a real directory, not a link, owned by this user, writable by neither group
 * nor others. Throws `ADP_ERR_UNSAFE_DIRECTORY` otherwise (or the error of a directory that cannot be
 * made). Checked after the make, so a directory someone made first, or a link put in its place, is
 * caught too.
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

/** Creates `file` for writing, mode 0600; fails (EEXIST) when anything, a link included, has its name. */
export function createNewFile(file: string): number {
  return openSync(file, CREATE_NEW, 0o600);
}

/** The text of `file`; fails (ELOOP) when it is a link. */
export function readFileNoLink(file: string): string {
  const fd = openSync(file, READ_NO_LINK);
  try {
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to `name` in `directory` (private, see `ensurePrivateDirectory`) so that a crash
 * leaves the old file or the new one, never a torn one: a new temporary file, `fsync`, a rename over
 * `name` and an `fsync` of the directory. A link at the temporary name fails the write.
 */
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
