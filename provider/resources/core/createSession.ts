/**
 * What the journaled creates of one provider process share (./journaledCreate.ts): the clock the
 * journal's times are on, and the object each create of this process returned, by URN. The face
 * that builds the lifecycle contexts owns one and hands it to every call, so nothing of it is
 * process-global and a test gets a fresh one with its own clock.
 */
import { epochClock, type Clock } from "../../client/clock";

/** The object one journaled create of this process returned. */
export interface CreatedHere {
  readonly id: string;
  /** True when the create took over a journaled object instead of POSTing. */
  readonly tookOver: boolean;
}

export class CreateSession {
  private readonly created = new Map<string, CreatedHere>();

  /**
   * `clock`: on the Unix epoch (journal entries are dated with it, compared by other processes and
   * shown as dates), the process's `epochClock` unless a test injects one.
   */
  constructor(readonly clock: Clock = epochClock) {}

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
}
