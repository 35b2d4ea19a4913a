/**
 * The creates of this process that are under way, for a process that must end cleanly when the
 * engine that asked for them is gone (docs/ARCHITECTURE.md, "The create journal").
 *
 * A create waiting for the rate limiter or for a retry is not sent once the engine is gone (nobody
 * would record its object); one on the wire is answered and journaled before the process ends, so
 * the next run can take its object over.
 */

/** One create under way. */
export interface CreateTicket {
  /** Aborted once the engine is gone, whenever the request is not on the wire. */
  readonly signal: AbortSignal;
  /** The request is about to be sent: while on the wire it is seen through, not aborted. */
  markSent(): void;
  /**
   * The attempt on the wire is over. A POST is sent again only after an answer that created
   * nothing (a 429, a refused connection), so from here it may be abandoned again.
   */
  markAnswered(): void;
  /** The create is over (answered and journaled, or failed). */
  done(): void;
}

interface TicketState {
  /** True while an attempt is on the wire. */
  sent: boolean;
  readonly controller: AbortController;
  readonly finished: Promise<void>;
  finish(): void;
}

const tickets = new Set<TicketState>();
let gone = false;

/** The reason an unsent create is aborted with. */
export class EngineGoneError extends Error {
  override readonly name = "EngineGoneError";
  constructor() {
    super("not sent: the Pulumi engine that asked for this create has ended");
  }
}

/** Registers a create that is starting. */
export function beginCreate(): CreateTicket {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const state: TicketState = { sent: false, controller: new AbortController(), finished, finish };
  if (gone) state.controller.abort(new EngineGoneError());
  tickets.add(state);
  return {
    signal: state.controller.signal,
    markSent: () => {
      state.sent = true;
    },
    markAnswered: () => {
      state.sent = false;
      if (gone) state.controller.abort(new EngineGoneError());
    },
    done: () => {
      tickets.delete(state);
      state.finish();
    },
  };
}

/** True once `engineGone` was called: failures can no longer reach the user in this process. */
export function engineIsGone(): boolean {
  return gone;
}

/**
 * The engine has ended: aborts every create not yet sent, and resolves once every create under way
 * is over (the sent ones answered and journaled).
 */
export async function engineGone(): Promise<void> {
  gone = true;
  for (const ticket of tickets) if (!ticket.sent) ticket.controller.abort(new EngineGoneError());
  await Promise.all([...tickets].map((ticket) => ticket.finished));
}
