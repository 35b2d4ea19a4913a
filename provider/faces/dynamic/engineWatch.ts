/**
 * The dynamic-provider plugin process ends by itself when the engine that started it is gone
 * (provider/resources/journal).
 *
 * The engine starts the plugin as its child (`pulumi-resource-pulumi-nodejs` execs node), and
 * nothing in `@pulumi/pulumi`'s plugin notices when the engine is killed: the plugin would keep
 * running, and keep sending the creates waiting in its rate limiter, for objects nobody records.
 * So the plugin watches its parent process; once the parent changed (the engine died and the
 * process was re-parented), creates not yet sent are abandoned, the ones in flight are answered and
 * journaled, and the process exits.
 */
import { engineGone } from "../../resources";
import { pluginEngineAddress } from "../engineAddress";

/** How often the parent process is checked, ms. */
const WATCH_INTERVAL_MS = 500; // 0.5 s

let watching = false;

/**
 * One line on stderr, for whoever still reads it (a test; a dead CLI reads nothing). Writing to a
 * pipe whose reader is gone fails with EPIPE, which must not end the process before its creates.
 */
function say(line: string): void {
  process.stderr.on("error", () => undefined);
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // nobody reads it
  }
}

/**
 * Starts watching, once, when this process is the dynamic-provider plugin (elsewhere, e.g. in a
 * test's process, nothing happens). `exit` is called after the creates under way are over.
 */
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
