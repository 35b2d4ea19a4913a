/**
 * What a face hands the lifecycle code with every call: what differs between the ways the engine
 * reaches it (the dynamic-provider plugin, `provider/faces/dynamic/`, or the native plugin,
 * `provider/faces/native/`), and nothing the lifecycle code could find out for itself.
 */
import type { Settings } from "../../configuration/settings";
import type { CreateSession } from "./createSession";

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
   * The configuration the face resolved (`provider/configuration/settings.ts`): where requests go and
   * with which token, where limits are shared and creates journaled. A missing base URL or token is
   * refused by the client, naming every way to set it. The token stays in memory: never in inputs,
   * outputs or state.
   */
  readonly settings: Settings;
  /**
   * The resource's URN, when the face knows it (a native provider plugin receives it in `Create`;
   * the dynamic face reads it from the SDK's hidden input). The create journal keys its entries by
   * it (docs/ARCHITECTURE.md, "The create journal"); without it, creates are not journaled.
   */
  readonly urn?: string;
  /**
   * Whether the engine's state holds a resource for `urn`, when the face can tell: a native plugin
   * sees it in `Check`'s old inputs (non-empty: the state holds one, so a create of it replaces it;
   * empty: a first create, the create after an interrupted one, or a `--target-replace`, for which
   * the engine sends no old inputs). Undefined: the face cannot tell (the dynamic face). The create
   * journal uses it to know when the engine holds what a create journaled (docs/ARCHITECTURE.md,
   * "The create journal").
   */
  readonly replacing?: boolean;
  /**
   * What the journaled creates of this process share: the journal's clock and what each create
   * returned. One per face instance (plugin process), the same object in every call.
   */
  readonly createSession: CreateSession;
}
