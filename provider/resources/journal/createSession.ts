/** Its own module so that ../lifecycle/context.ts names it without depending on the journal's protocol. */
import { epochClock, type Clock } from "../../infrastructure";

/** The object one journaled create of this process returned. */
export interface CreatedHere {
  readonly id: string;
  /** True when the create took over a journaled object instead of POSTing. */
  readonly tookOver: boolean;
}

/** Shared by one face's journaled creates: the clock, what each create returned, whether the state holds each URN. */
export class CreateSession {
  private readonly created = new Map<string, CreatedHere>();
  private readonly held = new Map<string, boolean>();

  /** `clock`: on the Unix epoch. `checkShowsState`: a face whose `Check` has old inputs exactly when the state holds the resource. */
  constructor(
    readonly clock: Clock = epochClock,
    private readonly checkShowsState = false,
  ) {}

  createdFor(urn: string | undefined): CreatedHere | undefined {
    return urn === undefined ? undefined : this.created.get(urn);
  }

  recordCreate(urn: string, created: CreatedHere): void {
    this.created.set(urn, created);
  }

  forget(urn: string): void {
    this.created.delete(urn);
  }

  /** Records what a `Check` of `urn` showed: whether the state holds it (undefined: unknown). */
  checked(urn: string, olds: Record<string, unknown>): boolean | undefined {
    if (!this.checkShowsState) return undefined;
    const holds = Object.keys(olds).length > 0;
    this.held.set(urn, holds);
    return holds;
  }

  stateHolds(urn: string): boolean | undefined {
    return this.held.get(urn);
  }
}
