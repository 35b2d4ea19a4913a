/**
 * A second local user for the tests of files another user controls: `nobody` (uid and gid 65534),
 * whose processes a root test process can start (`spawn(..., { uid, gid })`). CI runs the suites as
 * root, so these tests run there; elsewhere they are skipped with the reason in their name.
 */
import { runNodeScript, type ScriptRun } from "./nodeScript";

/** The second user. */
export const OTHER_USER = { uid: 65534, gid: 65534 } as const;

/** Whether this process can start processes as `OTHER_USER` (only root can). */
export const canActAsOtherUser = typeof process.getuid === "function" && process.getuid() === 0;

/** `it` when a second user is available, else `it.skip` with why in the test's name. */
export function itAsOtherUser(name: string, fn: () => Promise<void>, timeoutMs?: number): void {
  if (canActAsOtherUser) it(name, fn, timeoutMs);
  else it.skip(`${name} [skipped: needs root to start processes as a second user (uid ${OTHER_USER.uid})]`, fn);
}

/** What a process run as the second user printed, and how it ended. */
export type OtherUserRun = ScriptRun;

/** Runs `node -e script ...args` as `OTHER_USER`, with `env` added to this process's environment. */
export function runAsOtherUser(script: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Promise<OtherUserRun> {
  return runNodeScript(script, args, { ...OTHER_USER, env: { ...process.env, ...env, HOME: "/nonexistent" } });
}
