/**
 * The one channel through which this process says that a place it shares state through is not
 * used (the limits URL's Redis, for both the rate limits and the create journal; the machine's
 * limits directory), and that one is used again. A face points it at the engine when it starts, so
 * the lines are the update's diagnostics; elsewhere (a program, a script) they go to the console.
 */

/** How much a line matters: a place left is a warning, a place back in use an info line. */
export type Severity = "warning" | "info";

/** Where the lines go (a warning when `severity` is left out); a message names the package and is one sentence or a few. */
export type WarningSink = (message: string, severity?: Severity) => void;

const consoleSink: WarningSink = (message, severity) =>
  severity === "info" ? console.info(`info: ${message}`) : console.warn(`warning: ${message}`);
let sink: WarningSink = consoleSink;
/** The places warned about in this process. */
const warned = new Set<string>();

/** Says `message` (a warning unless `severity` says otherwise). */
export function say(message: string, severity: Severity = "warning"): void {
  sink(message, severity);
}

/** Warns `message` about `place` unless this process already warned about it. */
export function warnOnceAbout(place: string, message: string): void {
  if (warned.has(place)) return;
  warned.add(place);
  say(message);
}

/** Sends later lines to `next` (a face's engine log, a test's list); returns the previous sink. */
export function setFallbackWarningSink(next: WarningSink): WarningSink {
  const previous = sink;
  sink = next;
  return previous;
}
