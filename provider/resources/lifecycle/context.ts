/**
 * What a face hands the lifecycle code with every call: what differs between the ways the engine
 * reaches it (the dynamic-provider plugin, `provider/faces/dynamic/`, or the native plugin,
 * `provider/faces/native/`), and nothing the lifecycle code could find out for itself.
 */
import type { Settings } from "../../configuration";
import type { CreateSession } from "../journal/createSession";

/** The per-call context of a lifecycle method. */
export interface LifecycleContext {
  /**
   * Shows `message` to the user as a warning of this update. Resolves once delivered, so a warning
   * is not lost when the face's process ends right after the call.
   */
  readonly warn: (message: string) => Promise<void>;
  /** Shows `message` to the user as an info message of this update (what a step will do); resolves once delivered. */
  readonly info: (message: string) => Promise<void>;
  /**
   * Shows `message` as the resource's status while it is the latest (what the call is waiting for),
   * outside the update's diagnostics; not awaited. None: nowhere to show it.
   */
  readonly status?: (message: string) => void;
  /**
   * The configuration the face resolved (`provider/configuration/settings.ts`): where requests go and
   * with which token, where limits are shared and creates journaled. A missing base URL or token is
   * refused by the client, naming every way to set it. The token stays in memory: never in inputs,
   * outputs or state.
   */
  readonly settings: Settings;
  /**
   * The resource's URN, when the face knows it (a native provider plugin receives it in `Create`;
   * the dynamic face reads it from the SDK's hidden input). The create journal keys its entries by
   * it (../journal/index.ts); without it, creates are not journaled.
   */
  readonly urn?: string;
  /**
   * What the journaled creates of this face share (../journal/index.ts). One per face instance
   * (plugin process), the same object in every call.
   */
  readonly createSession: CreateSession;
}
