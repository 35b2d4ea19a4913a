/**
 * The client's debug lines, one per attempt, response and retry decision: off unless the caller passes
 * `onDebug` or `ADPLATFORM_DEBUG=1` (stderr). Every line is scrubbed of the token, whoever built it.
 */
import { redactText } from "../infrastructure";
import type { Env } from "./timeouts";

export const ENV_DEBUG = "ADPLATFORM_DEBUG";

/** Whether `ADPLATFORM_DEBUG` asks for debugging (`1` or `true`, any case). */
export function debugRequested(env: Env = process.env): boolean {
  const flag = env[ENV_DEBUG]?.trim().toLowerCase();
  return flag === "1" || flag === "true";
}

export type DebugSink = (line: string) => void;

/** A sink that scrubs `secrets` from every line, or undefined when debugging is off; `onDebug` wins over the environment. */
export function debugSink(onDebug: DebugSink | undefined, secrets: readonly string[], env: Env = process.env): DebugSink | undefined {
  const target: DebugSink | undefined = onDebug ?? (debugRequested(env) ? (line) => process.stderr.write(`${line}\n`) : undefined);
  if (!target) return undefined;
  return (line) => target(redactText(`adplatform: ${line}`, secrets));
}
