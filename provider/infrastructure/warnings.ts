/**
 * The one channel through which this process says that a place it shares state through (the limits
 * URL's Redis, the machine's limits directory) is not used, or used again. A face points it at the
 * engine, so the lines are the update's diagnostics; elsewhere they go to the console.
 */

/** A place left is a warning, a place back in use an info line. */
export type Severity = "warning" | "info";

export type WarningSink = (message: string, severity?: Severity) => void;

const consoleSink: WarningSink = (message, severity) =>
  severity === "info" ? console.info(`info: ${message}`) : console.warn(`warning: ${message}`);
let sink: WarningSink = consoleSink;
const warned = new Set<string>();

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
