/**
 * What the journaled creates of one face share (./journaling.ts): the clock, what each create
 * of this process returned, and what a native `Check` showed of the engine's state. Its own module
 * so that the per-call context (../lifecycle/context.ts) names it without depending on the journal's protocol.
 */
import { epochClock, type Clock } from "../../infrastructure";

/** The object one journaled create of this process returned. */
export interface CreatedHere {
  readonly id: string;
  /** True when the create took over a journaled object instead of POSTing. */
  readonly tookOver: boolean;
}

/**
 * What the journaled creates of one face share: the clock the journal's times are on, what each
 * create returned (by URN), and, for a face whose `Check` shows the engine's state, whether the
 * state holds each URN's resource. The face owns one and hands it to every call, so nothing of it
 * is process-global and a test gets a fresh one with its own clock.
 */
export class CreateSession {
  private readonly created = new Map<string, CreatedHere>();
  private readonly held = new Map<string, boolean>();

  /**
   * @param clock on the Unix epoch (entries are dated with it, compared by other processes and shown
   *   as dates): the process's `epochClock` unless a test injects one.
   * @param checkShowsState true for a face whose `Check` carries old inputs exactly when the engine's
   *   state holds the resource (the native plugin; the engine checks a resource before it creates it,
   *   in the same plugin). Without it, whether the state holds the resource is unknown.
   */
  constructor(
    readonly clock: Clock = epochClock,
    private readonly checkShowsState = false,
  ) {}

  /** What this process's last create of `urn` returned, if any. */
  createdFor(urn: string): CreatedHere | undefined {
    return this.created.get(urn);
  }

  /** Records what a create of `urn` returned. */
  recordCreate(urn: string, created: CreatedHere): void {
    this.created.set(urn, created);
  }

  /** Forgets the create of `urn` (its object is settled). */
  forget(urn: string): void {
    this.created.delete(urn);
  }

  /** Records what a `Check` of `urn` showed; returns whether the state holds it (undefined: unknown). */
  checked(urn: string, olds: Record<string, unknown>): boolean | undefined {
    if (!this.checkShowsState) return undefined;
    const holds = Object.keys(olds).length > 0;
    this.held.set(urn, holds);
    return holds;
  }

  /** Whether the engine's state held `urn`'s resource at its last `Check`, when this face can tell. */
  stateHolds(urn: string): boolean | undefined {
    return this.held.get(urn);
  }
}
