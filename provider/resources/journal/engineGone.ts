/**
 * The creates under way in this process, for a process that must end cleanly when the engine that
 * asked for them is gone: a create waiting for the rate limiter or a retry is not sent once the
 * engine is gone (nobody would record its object); one on the wire is answered and journaled before
 * the process ends, so the next run can take its object over.
 */

/** One create under way (`./begin.ts` opens one per POST). */
export interface Ticket {
  /** True while an attempt is on the wire: it is seen through, not aborted. */
  sent: boolean;
  readonly controller: AbortController;
  readonly finished: Promise<void>;
  finish(): void;
}

const tickets = new Set<Ticket>();
let gone = false;

/** The reason an unsent create is aborted with. */
export class EngineGoneError extends Error {
  override readonly name = "EngineGoneError";
  constructor() {
    super("not sent: the Pulumi engine that asked for this create has ended");
  }
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

/** A ticket for a create about to start (aborted at once when the engine is gone); `close` it when over. */
export function openTicket(): Ticket {
  let finish!: () => void;
  const ticket: Ticket = {
    sent: false,
    controller: new AbortController(),
    finished: new Promise<void>((resolve) => (finish = resolve)),
    finish: () => finish(),
  };
  if (gone) ticket.controller.abort(new EngineGoneError());
  tickets.add(ticket);
  return ticket;
}

/** An attempt of `ticket`'s POST is over without creating anything: from here it may be abandoned again. */
export function attemptOver(ticket: Ticket): void {
  ticket.sent = false;
  if (gone) ticket.controller.abort(new EngineGoneError());
}

/** `ticket`'s create is over. */
export function closeTicket(ticket: Ticket): void {
  tickets.delete(ticket);
  ticket.finish();
}
