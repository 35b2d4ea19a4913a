/**
 * How a failed read shows when the Pulumi program does not catch it.
 *
 * The Node.js language host prints an uncaught error in one of two ways: a `pulumi.RunError` as its
 * message alone, anything else as "failed with an unhandled exception" followed by the error
 * object inspected in colour (both stack traces, every field, the cause chain and, for a failed
 * resource input, the rejected promise). A data source's message already names the function, the
 * object, the request and what to fix, so its errors take the first way; `ADPLATFORM_DEBUG=1`
 * (the switch of the client's debug lines) gives back the full dump, stacks included.
 *
 * An `Output` that a failed read rejects passes the rejection on to promises the runtime creates
 * for it (whether the value is known, whether it is secret) and to every `Output` derived from it.
 * When the read fails quickly, before the runtime awaits them, Node reports them unhandled (the
 * runtime's report of the error) and then, when the runtime gets to them, warns
 * "PromiseRejectionHandledWarning" once per promise: noise under the one error that matters. A
 * `rejectionHandled` listener takes the place of that warning; it stays silent for the rejections
 * of a data source's error and warns as Node would for any other.
 *
 * The errors stay what they are (`DataSourceNotFoundError`, ...; a program can still catch them by
 * class or `code`): they carry the runtime's RunError mark instead of being wrapped. The runtime
 * recognises a RunError by that mark rather than by class, so that errors from another copy of
 * `@pulumi/pulumi` in the same process count too; tests/sdk/dataSources/programErrors.test.ts checks
 * that `pulumi.RunError.isInstance` accepts a marked error.
 */
import { debugRequested } from "../../provider/client";
import { DataSourceError } from "../../provider/dataSources";

/** The property by which `pulumi.RunError.isInstance` recognises a RunError. */
const RUN_ERROR_MARK = "__pulumiRunError";

let listening = false;

/**
 * Once per process: a `rejectionHandled` listener that says nothing for a promise rejected with a
 * data source's error, and emits Node's warning for any other (a listener replaces Node's own).
 */
function quietLateHandling(): void {
  if (listening) return;
  listening = true;
  process.on("rejectionHandled", (promise: Promise<unknown>) => {
    promise.catch((reason: unknown) => {
      if (reason instanceof DataSourceError) return;
      process.emitWarning("Promise rejection was handled asynchronously", "PromiseRejectionHandledWarning");
    });
  });
}

/**
 * `error`, marked as a RunError when it is a data source's own error and debugging is off. Any other
 * error (a bug, not a failed read) keeps the runtime's full report. Returns the same object.
 */
export function asProgramError<E>(error: E, env: Readonly<Record<string, string | undefined>> = process.env): E {
  if (!(error instanceof DataSourceError)) return error;
  quietLateHandling();
  if (!debugRequested(env)) {
    // Not enumerable: it is not part of the error's data, and stays out of inspect and JSON.
    Object.defineProperty(error, RUN_ERROR_MARK, { value: true, configurable: true });
  }
  return error;
}
