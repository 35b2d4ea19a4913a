/**
 * The one channel through which this process says that a place it shares state through is not
 * used (the limits URL's Redis, for both the rate limits and the create journal; the machine's
 * limits directory), each once per place. A face points it at the engine when it starts, so the
 * warning is one of the update's diagnostics; elsewhere (a program, a script) it is `console.warn`.
 */

/** Where a warning goes; the message names the package and is one sentence or a few. */
export type WarningSink = (message: string) => void;

const consoleSink: WarningSink = (message) => console.warn(`warning: ${message}`);
let sink: WarningSink = consoleSink;
/** The places warned about in this process. */
const warned = new Set<string>();

/** Warns `message` about `place` unless this process already warned about it. */
export function warnOnceAbout(place: string, message: string): void {
  if (warned.has(place)) return;
  warned.add(place);
  sink(message);
}

/** Sends later warnings to `next` (a face's engine log, a test's list); returns the previous sink. */
export function setFallbackWarningSink(next: WarningSink): WarningSink {
  const previous = sink;
  sink = next;
  return previous;
}
