/**
 * The creates of this process that are under way, for a process that must end cleanly when the
 * engine that asked for them is gone (docs/ARCHITECTURE.md, "The create journal").
 *
 * A create still waiting for the rate limiter is not sent once the engine is gone (nobody would
 * record its object); one already sent is answered and journaled before the process ends, so the
 * next run can take its object over.
 */

/** One create under way. */
export interface CreateTicket {
  /** Aborted when the engine is gone before the request was sent. */
  readonly signal: AbortSignal;
  /** The request is about to be sent: from now on it is seen through, not aborted. */
  markSent(): void;
  /** The create is over (answered and journaled, or failed). */
  done(): void;
}

interface TicketState {
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
