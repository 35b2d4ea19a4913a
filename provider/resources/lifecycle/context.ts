/** What a face hands the lifecycle code with every call: what differs between faces, nothing it could find out itself. */
import type { Settings } from "../../configuration";
import type { CreateSession } from "../journal/createSession";

export interface LifecycleContext {
  /** A warning of this update; resolves once delivered, so it is not lost when the process ends. */
  readonly warn: (message: string) => Promise<void>;
  /** An info message of this update (what a step will do); resolves once delivered. */
  readonly info: (message: string) => Promise<void>;
  /** The resource's status while it is the latest (what the call waits for); not awaited. */
  readonly status?: (message: string) => void;
  /** The resolved configuration; the token stays in memory, never in inputs, outputs or state. */
  readonly settings: Settings;
  /** The resource's URN, when the face knows it; the journal keys entries by it (none: not journaled). */
  readonly urn?: string;
  /** One per face instance, the same object in every call. */
  readonly createSession: CreateSession;
}
