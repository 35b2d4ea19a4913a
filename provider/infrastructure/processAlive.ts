/** Whether a process of this machine still runs, for state that names its writer by pid. */

/**
 * Whether process `pid` still runs. Signal 0 checks without signalling; EPERM means the process
 * exists but belongs to another user.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
