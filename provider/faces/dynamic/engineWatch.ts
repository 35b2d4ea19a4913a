/**
 * The dynamic-provider plugin ends when the engine that started it is gone (provider/resources/journal):
 * nothing in `@pulumi/pulumi`'s plugin notices, and it would keep sending the creates waiting in its
 * rate limiter for objects nobody records. Once its parent process changed, creates not yet sent are
 * abandoned, those in flight are answered and journaled, and the process exits.
 */
import { engineGone } from "../../resources";
import { pluginEngineAddress } from "../engineAddress";

const WATCH_INTERVAL_MS = 500;

let watching = false;

/** One line on stderr for a test; with the CLI gone it fails with EPIPE, which must not end the process before its creates. */
function say(line: string): void {
  process.stderr.on("error", () => undefined);
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // nobody reads it
  }
}

/** Starts watching, once, in the dynamic-provider plugin only; `exit` is called after the creates under way are over. */
export function watchEngine(exit: (code: number) => void = (code) => process.exit(code)): void {
  if (watching || pluginEngineAddress() === undefined) return;
  watching = true;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    const settled = engineGone();
    say(`pulumi-adplatform: the engine is gone; finishing the creates in flight, then exiting`);
    void settled.finally(() => exit(0));
  }, WATCH_INTERVAL_MS);
  // The watch alone never keeps the plugin alive.
  timer.unref();
}
