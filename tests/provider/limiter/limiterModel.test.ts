/**
 * The limiter's rules (limiterModel.ts) as traces: events in, grants and
 * wake-ups out, on `decide` alone. Times are ms on one account's clock; windows of 1 s and 60 s,
 * class C (10 and 150), a guard of 10 ms.
 */
import {
  decide,
  heartbeatMs,
  livenessMs,
  type LimiterEvent,
  type ModelConfig,
  type Waiting,
  ticketLifeMs,
} from "../../../provider/limiter/limiterModel";
import { type LimiterState, type Ticket } from "../../../provider/limiter/limiterState";
import { withCap } from "../../helpers/limiterConfig";

const CONFIG: ModelConfig = withCap(8);

/** One account's decisions in order: each step's events, queue and time; what it granted and when it asked to wake. */
class Trace {
  state: LimiterState | undefined;
  readonly tickets = new Map<string, Ticket>();
  private n = 0;

  constructor(readonly config: ModelConfig = CONFIG) {}

  /** `count` requests of `cost` from `owner`. */
  requests(count: number, cost = 1, owner = "a"): Waiting[] {
    return Array.from({ length: count }, () => ({ id: `${owner}#${++this.n}`, cls: "C", cost }));
  }

  step(now: number, queue: readonly Waiting[] = [], events: readonly LimiterEvent[] = []) {
    const decision = decide(this.state, events, queue, now, this.config);
    this.state = decision.state;
    for (const grant of decision.grants) this.tickets.set(grant.id, grant.ticket);
    return { granted: decision.grants.map((g) => g.id), wakeAt: decision.wakeAt };
  }

  /** The answer to `id`, released. */
  answer(id: string, receivedAt: number, rest: Partial<Extract<LimiterEvent, { kind: "answer" }>> = {}): LimiterEvent {
    return { kind: "answer", id, ticket: this.tickets.get(id)!, receivedAt, status: 200, release: true, ...rest };
  }

  burst() {
    return this.state!.classes.C!.burst;
  }
  steady() {
    return this.state!.classes.C!.steady;
  }
}

const ids = (waiting: readonly Waiting[]) => waiting.map((w) => w.id);
/** The `holds` event every decision of limiter `owner` sends: its heartbeat. */
const holds = (owner: string, held: readonly string[]): LimiterEvent => ({ kind: "holds", owner: `${owner}#`, ids: held });

describe("room", () => {
  it("grants a window's limit at once, as far as the in-flight cap allows; the rest wakes at the window's end", () => {
    const t = new Trace();
    const queue = t.requests(12);
    const first = t.step(0, queue);
    expect(first.granted).toEqual(ids(queue.slice(0, 8)));
    expect(first.wakeAt).toBe(ticketLifeMs(CONFIG)); // the cap is full of our own tickets: their release decides again, or their expiry
    const answers = queue.slice(0, 8).map((w) => t.answer(w.id, 5));
    const second = t.step(5, queue.slice(8), answers);
    expect(second.granted).toEqual(ids(queue.slice(8, 10)));
    expect(second.wakeAt).toBe(t.burst().endsBy);
    expect(t.burst().endsBy).toBe(1_005); // its requests were answered at 5: it opened before that
    const third = t.step(
      1_005,
      queue.slice(10),
      queue.slice(8, 10).map((w) => t.answer(w.id, 6)),
    );
    expect(third.granted).toEqual(ids(queue.slice(10)));
  });

  it("an empty window takes a cost above its limit, as the server does", () => {
    const t = new Trace();
    const [big] = t.requests(1, 25);
    expect(t.step(0, [big!]).granted).toEqual([big!.id]);
    expect(t.burst().spent).toBe(25);
  });

  it("spends at most the window's limit times the share", () => {
    const t = new Trace({ ...CONFIG, share: 0.5 });
    expect(t.step(0, t.requests(8)).granted).toHaveLength(5);
  });

  it("fits each request within its own caller's share, so callers of one account never spend more than the largest share", () => {
    const t = new Trace(); // the model's share (1) for requests that name none
    const halves = t.requests(8).map((w) => ({ ...w, share: 0.5 }));
    const wholes = t.requests(8);
    // In queue order: the half-share caller's 5, then the whole-share caller's next 3 of the cap
    // (a request of a larger share passes a head its own share blocks).
    const first = t.step(0, [...halves, ...wholes]);
    expect(first.granted).toEqual([...ids(halves.slice(0, 5)), ...ids(wholes.slice(0, 3))]);
    const answers = first.granted.map((id) => t.answer(id, 5));
    // The burst window's 10: the whole-share caller takes the last 2; the half-share one waits for the window's end.
    const second = t.step(5, [...halves.slice(5), ...wholes.slice(3)], answers);
    expect(second.granted).toEqual(ids(wholes.slice(3, 5)));
    expect(t.burst()).toMatchObject({ spent: 10, own: 10 });
    // Halves first: a request of no larger a share never passes its head.
    const u = new Trace();
    const [head, ...rest] = u.requests(7).map((w) => ({ ...w, share: 0.5 }));
    expect(u.step(0, [...rest, head!]).granted).toHaveLength(5);
  });

  it("our own spend stays within limit × share while others' spend counts only against the limit", () => {
    const t = new Trace({ ...CONFIG, share: 0.5 });
    const [a] = t.requests(1);
    t.step(0, [a!]);
    // The server counted 3: ours and 2 of a neighbour's. Our share is still 5 of the 10.
    const more = t.requests(6);
    const step = t.step(5, more, [t.answer(a!.id, 5, { report: { limit: 10, remaining: 7, resetMs: 990 } })]);
    expect(step.granted).toEqual(ids(more.slice(0, 4)));
    expect(t.burst()).toMatchObject({ spent: 7, own: 5 });
  });

  it("the account's spend, ours and others', stays within the limit: a neighbour past its part leaves us less than our share", () => {
    const t = new Trace({ ...CONFIG, share: 0.5 });
    const [a] = t.requests(1);
    t.step(0, [a!]);
    // The server counted 9: ours and 8 of a neighbour's, more than the half we leave it.
    const more = t.requests(3);
    const step = t.step(5, more, [t.answer(a!.id, 5, { report: { limit: 10, remaining: 1, resetMs: 990 } })]);
    expect(step.granted).toEqual(ids(more.slice(0, 1)));
    expect(t.burst()).toMatchObject({ spent: 10, own: 2 });
  });

  it("with the whole limit (share 1) our own spend is never what blocks: today's room", () => {
    const t = new Trace();
    const [a] = t.requests(1);
    t.step(0, [a!]);
    const more = t.requests(12);
    const step = t.step(5, more, [t.answer(a!.id, 5, { report: { limit: 10, remaining: 7, resetMs: 990 } })]);
    expect(step.granted).toEqual(ids(more.slice(0, 7)));
    expect(t.burst()).toMatchObject({ spent: 10, own: 8 });
  });
});

describe("the queue", () => {
  it("is first come, first served: a request that fits waits behind a head of its class that costs no more", () => {
    const t = new Trace();
    const filler = t.requests(8);
    t.step(0, filler, []);
    const [head, behind] = [t.requests(1, 3)[0]!, t.requests(1, 3)[0]!];
    const step = t.step(
      1,
      [head, behind],
      filler.map((w) => t.answer(w.id, 1)),
    );
    expect(step.granted).toEqual([]);
    expect(step.wakeAt).toBe(t.burst().endsBy);
  });

  it("a cheaper request behind a head that waits for the window's end goes first, into room the head cannot use", () => {
    const t = new Trace();
    const filler = t.requests(8);
    t.step(0, filler);
    const head = t.requests(1, 3)[0]!;
    const cheap = t.requests(3, 1);
    const step = t.step(
      1,
      [head, ...cheap],
      filler.map((w) => t.answer(w.id, 1)),
    );
    expect(step.granted).toEqual(ids(cheap.slice(0, 2))); // 8 + 2 = 10: the burst window is full
    const answers = cheap.slice(0, 2).map((w) => t.answer(w.id, 2));
    expect(t.step(t.burst().endsBy, [head, cheap[2]!], answers).granted).toEqual([head.id, cheap[2]!.id]);
  });

  it("a cheaper request does not take the head's room in a window the head is not waiting for the end of", () => {
    const t = new Trace();
    const filler = t.requests(8);
    t.step(0, filler);
    t.state!.classes.C!.steady.spent = 147; // 147 + 1 + 3 > 150: the head needs the steady room left
    const head = t.requests(1, 3)[0]!;
    const cheap = t.requests(1, 1);
    expect(
      t.step(
        1,
        [head, ...cheap],
        filler.map((w) => t.answer(w.id, 1)),
      ).granted,
    ).toEqual([]);
  });
});

describe("a window's uncertain end", () => {
  it("an answer's X-RateLimit-Reset moves the end earlier, never later", () => {
    const t = new Trace();
    const [a, b] = t.requests(2);
    t.step(0, [a!]);
    t.step(10, [b!], [t.answer(a!.id, 10, { report: { limit: 10, remaining: 9, resetMs: 985 } })]);
    expect(t.burst().endsBy).toBe(995);
    t.step(20, [], [t.answer(b!.id, 20, { report: { limit: 10, remaining: 8, resetMs: 999 } })]);
    expect(t.burst().endsBy).toBe(995);
  });

  it("a window whose end is still our guess does not end while its requests are unanswered; the first answer replaces the guess", () => {
    const t = new Trace({ ...CONFIG, concurrency: { initial: 11, min: 1, max: 11 } });
    const first = t.requests(10);
    t.step(0, first);
    expect(t.burst().endsBy).toBe(1_010); // our guess: a window and a guard
    const [next] = t.requests(1);
    // Past the guessed end, nothing answered: the requests may have reached the server late.
    const held = t.step(1_010, [next!]);
    expect(held.granted).toEqual([]);
    // An answer wakes it (ours, or another process's heard through the store); else the time its
    // requests stop counting: their owner's liveness deadline, as it sent no heartbeat since.
    expect(held.wakeAt).toBe(livenessMs(CONFIG));
    // The server's window opened late: its end is later than the guess.
    const answered = t.step(1_020, [next!], [t.answer(first[0]!.id, 1_020, { report: { limit: 10, remaining: 1, resetMs: 40 } })]);
    expect(answered.granted).toEqual([]);
    expect(answered.wakeAt).toBe(1_060);
    expect(t.step(1_060, [next!]).granted).toEqual([next!.id]);
  });

  it("an answer without a report bounds its window's end a length after it arrived", () => {
    const t = new Trace();
    const [a] = t.requests(1);
    t.step(0, [a!]);
    t.step(50, [], [t.answer(a!.id, 50)]); // it reached the server at 50 at the latest, maybe after the guard
    expect(t.burst()).toMatchObject({ endsBy: 1_050, heard: true });
  });

  it("a request still unanswered when its window ends is charged to the next window too", () => {
    const t = new Trace();
    const [a, b, c] = t.requests(3);
    t.step(0, [a!, b!]);
    t.step(5, [], [t.answer(a!.id, 5, { report: { limit: 10, remaining: 8, resetMs: 995 } })]);
    t.step(1_000, [c!]);
    expect(t.burst()).toMatchObject({ opened: 1_000, spent: 2 }); // b's cost and c's
  });

  it("a request still unanswered when its window ends is charged to the next window even when its ticket has expired: expiry gives back its slot, not its cost", () => {
    const t = new Trace();
    const [a, b, c] = t.requests(3);
    t.step(0, [a!]);
    t.step(5, [], [t.answer(a!.id, 5, { report: { limit: 150, remaining: 149, resetMs: 59_995 } })]);
    t.step(55_000, [b!]); // b's ticket expires at 65,000; its steady window ends at 60,000
    t.step(66_000, [c!]); // b may still reach the server, in the window that c's grant opens
    expect(t.steady()).toMatchObject({ opened: 66_000, spent: 2, own: 2 }); // b's cost and c's
  });

  it("a request is charged to every window that opens while it is unanswered, not only the one after its own", () => {
    const t = new Trace();
    const [a, b, c, d] = t.requests(4);
    t.step(0, [a!, b!]);
    t.step(5, [], [t.answer(a!.id, 5, { report: { limit: 10, remaining: 8, resetMs: 995 } })]);
    t.step(1_000, [c!]); // b carried into the window c opens
    t.step(1_005, [], [t.answer(c!.id, 1_005, { report: { limit: 10, remaining: 8, resetMs: 995 } })]);
    t.step(2_000, [d!]); // b, still unanswered, may reach the server in this one
    expect(t.burst()).toMatchObject({ opened: 2_000, spent: 2 }); // b's cost and d's
  });

  it("an answer at its window's earliest end may be about the next window: the server's window holds the times before its end", () => {
    const t = new Trace();
    const [a, b, c] = t.requests(3);
    t.step(0, [a!, b!]);
    t.step(5, [], [t.answer(a!.id, 5, { report: { limit: 10, remaining: 8, resetMs: 995 } })]);
    t.step(1_000, [], [t.answer(b!.id, 1_000)]);
    t.step(1_000, [c!]);
    expect(t.burst()).toMatchObject({ opened: 1_000, spent: 2 }); // b's cost and c's
  });

  it("an answer to a request carried into its window, at or after that window's earliest end, charges it to the next window too", () => {
    const t = new Trace();
    const [a, b, c, d] = t.requests(4);
    t.step(0, [a!, b!]);
    t.step(5, [], [t.answer(a!.id, 5, { report: { limit: 10, remaining: 8, resetMs: 995 } })]);
    t.step(1_000, [c!]); // b carried into the window c opens, which ends at 2,000 at the earliest
    t.step(1_005, [], [t.answer(c!.id, 1_005, { report: { limit: 10, remaining: 8, resetMs: 995 } })]);
    t.step(2_000, [], [t.answer(b!.id, 2_000)]);
    t.step(2_000, [d!]);
    expect(t.burst()).toMatchObject({ opened: 2_000, spent: 2 }); // b's cost and d's
  });

  it("an answer that may be about the next window (after this one's earliest end, its Reset past the next one's) charges its request there too", () => {
    const t = new Trace();
    const [a, b, c, d] = t.requests(4);
    t.step(0, [a!]);
    t.step(5, [b!, c!], [t.answer(a!.id, 5, { report: { limit: 10, remaining: 9, resetMs: 995 } })]);
    // b reached the server after the window's end at 1,000 and opened the next: Reset 997 at 1,003.
    t.step(1_003, [], [t.answer(b!.id, 1_003, { report: { limit: 10, remaining: 9, resetMs: 997 } })]);
    // c was counted in this window: its Reset gives this window's end.
    t.step(1_004, [], [t.answer(c!.id, 1_004, { report: { limit: 10, remaining: 7, resetMs: 0 } })]);
    expect(t.burst()).toMatchObject({ carry: 1, carryUntil: 2_003 });
    t.step(1_004, [d!]);
    expect(t.burst()).toMatchObject({ opened: 1_004, spent: 2 }); // b's cost and d's
  });

  it("a carried cost lapses a length after its answer: a window it may have opened is over by then", () => {
    const t = new Trace();
    const [a, b, c] = t.requests(3);
    t.step(0, [a!, b!]);
    t.step(5, [], [t.answer(a!.id, 5, { report: { limit: 10, remaining: 8, resetMs: 995 } })]);
    t.step(1_003, [], [t.answer(b!.id, 1_003, { report: { limit: 10, remaining: 9, resetMs: 997 } })]);
    t.step(2_003, [c!]);
    expect(t.burst()).toMatchObject({ opened: 2_003, spent: 1 });
  });

  it("an answer about a window already over changes nothing", () => {
    const t = new Trace();
    const [a, b, c] = t.requests(3);
    t.step(0, [a!, c!]);
    t.step(5, [], [t.answer(c!.id, 5, { report: { limit: 10, remaining: 8, resetMs: 995 } })]);
    t.step(1_010, [b!]);
    const before = structuredClone(t.burst());
    t.step(1_011, [], [t.answer(a!.id, 1_011, { report: { limit: 10, remaining: 0, resetMs: 5 } })]);
    expect(t.burst()).toEqual(before);
  });
});

describe("what others spend", () => {
  it("X-RateLimit-Remaining is the account's: it raises the count to the server's, never lowers it", () => {
    const t = new Trace();
    const [a, b] = t.requests(2);
    t.step(0, [a!, b!]);
    t.step(5, [], [t.answer(a!.id, 5, { report: { limit: 10, remaining: 3, resetMs: 990 } })]);
    expect(t.burst().spent).toBe(7);
    t.step(6, [], [t.answer(b!.id, 6, { report: { limit: 10, remaining: 9, resetMs: 990 } })]);
    expect(t.burst().spent).toBe(7);
  });

  it("an X-RateLimit-Limit above the class's burst limit describes the steady window; one below half the class's is not believed", () => {
    const t = new Trace();
    const [a, b, c] = t.requests(3);
    t.step(0, [a!, b!, c!]);
    t.step(5, [], [t.answer(a!.id, 5, { report: { limit: 150, remaining: 10, resetMs: 30_000 } })]);
    expect(t.steady()).toMatchObject({ spent: 140, endsBy: 30_005 });
    t.step(6, [], [t.answer(b!.id, 6, { report: { limit: 1, remaining: 0, resetMs: 900 } })]);
    expect(t.burst()).toMatchObject({ limit: 10, spent: 3 });
    t.step(7, [], [t.answer(c!.id, 7, { report: { limit: 6, remaining: 0, resetMs: 900 } })]);
    expect(t.burst()).toMatchObject({ limit: 6, spent: 6 });
  });

  it("a Reset before the window's assumed earliest end shows others opened it: its earliest end drops to the Reset less the round trip", () => {
    const t = new Trace();
    const [a, b] = t.requests(2);
    t.step(0, [a!]); // a fresh window: its earliest end assumed a length after our first grant
    t.step(100, [b!], [t.answer(a!.id, 100, { report: { limit: 150, remaining: 50, resetMs: 30_000 } })]);
    expect(t.steady()).toMatchObject({ endsAfter: 30_000, endsBy: 30_100 });
    t.step(30_050, [], [t.answer(b!.id, 30_050)]); // after the earliest end: b may be in the next window
    expect(t.steady()).toMatchObject({ carry: 1 });
  });
});

describe("a refusal", () => {
  it("is a report about the window it was counted in: full until its end, no later than Retry-After; its cost leaves the steady window", () => {
    const t = new Trace();
    const [a, b] = t.requests(2);
    t.step(0, [a!]);
    const step = t.step(300, [b!], [t.answer(a!.id, 300, { status: 429, retryAfter: { kind: "delay", ms: 1_000 } })]);
    expect(step.granted).toEqual([]);
    expect(step.wakeAt).toBe(1_010); // our end is sooner than receivedAt + Retry-After
    expect(t.steady().spent).toBe(0);
  });

  it("about a window that is already over says nothing", () => {
    const t = new Trace();
    const [a, b] = t.requests(2);
    t.step(0, [a!]);
    t.step(1_010, [], [t.answer(a!.id, 1_010, { status: 429, retryAfter: { kind: "delay", ms: 1_000 } })]);
    expect(t.step(1_020, [b!]).granted).toEqual([b!.id]);
  });

  it("a Retry-After longer than a steady window holds the steady window for at most one", () => {
    const t = new Trace();
    const [a, b] = t.requests(2);
    t.step(0, [a!]);
    const step = t.step(5, [b!], [t.answer(a!.id, 5, { status: 429, retryAfter: { kind: "delay", ms: 3_600_000 } })]);
    expect(step.wakeAt).toBeLessThanOrEqual(60_010);
  });

  it("Retry-After -1 lowers the cap to the requests in flight at its admission minus one, once per congestion, remembered as the ceiling", () => {
    const t = new Trace();
    const queue = t.requests(8);
    t.step(0, queue);
    const refused = (id: string) => t.answer(id, 5, { status: 429, retryAfter: { kind: "concurrency" } });
    t.step(5, [], [refused(queue[7]!.id), refused(queue[6]!.id)]);
    expect(t.state!.cap).toMatchObject({ value: 7, ceiling: 7 });
  });

  it("Retry-After -1 on a request alone in flight lowers the cap but sets no ceiling", () => {
    const t = new Trace();
    const [a] = t.requests(1);
    t.step(0, [a!]);
    t.step(5, [], [t.answer(a!.id, 5, { status: 429, retryAfter: { kind: "concurrency" } })]);
    expect(t.state!.cap).toMatchObject({ value: 4, ceiling: null });
  });

  it("the cap grows by one after a cap's worth of good answers, past the ceiling only a steady window after it dropped", () => {
    const t = new Trace({ ...CONFIG, concurrency: { initial: 3, min: 1, max: 8 } });
    let now = 0;
    const round = () => {
      const queue = t.requests(t.state?.cap.value ?? 3);
      t.step(now, queue);
      now += 1_100;
      t.step(
        now,
        [],
        queue.map((w) => t.answer(w.id, now)),
      );
    };
    round();
    expect(t.state!.cap.value).toBe(4);
    t.state!.cap = { value: 4, ceiling: 4, loweredAt: now, good: 0 };
    round();
    expect(t.state!.cap.value).toBe(4);
    now += 60_000;
    round();
    expect(t.state!.cap.value).toBe(5);
  });
});

describe("requests in flight", () => {
  it("a ticket that is never released expires by itself", () => {
    const t = new Trace({ ...CONFIG, concurrency: { initial: 1, min: 1, max: 8 } });
    const [a, b] = t.requests(2, 1, "dead");
    t.step(0, [a!]);
    const [mine] = t.requests(1, 1, "b");
    const waiting = t.step(100, [mine!]);
    expect(waiting.granted).toEqual([]);
    expect(waiting.wakeAt).toBeGreaterThan(100);
    expect(waiting.wakeAt).toBeLessThanOrEqual(ticketLifeMs(CONFIG));
    expect(t.step(ticketLifeMs(CONFIG), [mine!]).granted).toEqual([mine!.id]);
    expect(b).toBeDefined();
  });

  it("a limiter's tickets are the permits it holds: one released while it decided on another store is given back", () => {
    const t = new Trace({ ...CONFIG, concurrency: { initial: 2, min: 1, max: 8 } });
    const [a, b, c] = t.requests(3, 1, "me");
    expect(t.step(0, [a!, b!, c!]).granted).toEqual([a!.id, b!.id]);
    // a and b were answered and released on a store apart; this state never heard: c would wait for a release that never comes
    const step = t.step(100, [c!], [{ kind: "holds", owner: "me#", ids: [] }]);
    expect(step.granted).toEqual([c!.id]);
    expect(Object.keys(t.state!.tickets)).toEqual([c!.id]);
  });

  it("holding tells only of the holder's tickets", () => {
    const t = new Trace({ ...CONFIG, concurrency: { initial: 2, min: 1, max: 8 } });
    const [other] = t.requests(1, 1, "other");
    const [mine] = t.requests(1, 1, "me");
    t.step(0, [other!, mine!]);
    t.step(1, [], [{ kind: "holds", owner: "me#", ids: [mine!.id] }]);
    expect(Object.keys(t.state!.tickets).sort()).toEqual([mine!.id, other!.id].sort());
  });

  it("others' tickets filling the cap: waits until the first stops counting (its owner's liveness deadline), not polling", () => {
    const t = new Trace({ ...CONFIG, concurrency: { initial: 1, min: 1, max: 8 } });
    const [other] = t.requests(1, 1, "other");
    t.step(0, [other!]);
    expect(t.step(1, t.requests(1, 1, "me")).wakeAt).toBe(livenessMs(CONFIG));
    t.step(4_000, [], [holds("other", [other!.id])]);
    expect(t.step(4_001, t.requests(1, 1, "me")).wakeAt).toBe(4_000 + livenessMs(CONFIG));
  });
});

describe("a ticket lives as long as its attempt can, while its owner lives", () => {
  const oneSlot = { ...CONFIG, concurrency: { initial: 1, min: 1, max: 1 } };

  it("a 50 s request still holds its slot at 30 s: its owner beats, and its ticket lives its attempt's timeout", () => {
    const t = new Trace(oneSlot);
    const slow: Waiting = { id: "slow#1", cls: "C", cost: 1, lifeMs: 60_000 };
    t.step(0, [slow]);
    expect(t.tickets.get(slow.id)!.exp).toBe(60_000);
    const [mine] = t.requests(1, 1, "me");
    for (let at = heartbeatMs(CONFIG); at <= 30_000; at += heartbeatMs(CONFIG)) {
      expect(t.step(at, [mine!], [holds("slow", [slow.id])]).granted).toEqual([]);
    }
    expect(t.step(30_001, [mine!]).granted).toEqual([]);
    expect(t.step(50_000, [mine!], [t.answer(slow.id, 50_000)]).granted).toEqual([mine!.id]);
  });

  it("a ticket lives no longer than its attempt, however long its owner lives", () => {
    const t = new Trace(oneSlot);
    const hung: Waiting = { id: "hung#1", cls: "C", cost: 1, lifeMs: 20_000 };
    t.step(0, [hung]);
    const [mine] = t.requests(1, 1, "me");
    expect(t.step(15_000, [mine!], [holds("hung", [hung.id])]).granted).toEqual([]);
    expect(t.step(19_999, [mine!], [holds("hung", [hung.id])]).wakeAt).toBe(20_000);
    expect(t.step(20_000, [mine!], [holds("hung", [hung.id])]).granted).toEqual([mine!.id]);
  });

  it("a dead owner's ticket stops counting after the liveness period; its cost stays in its windows", () => {
    const t = new Trace(oneSlot);
    const [dead] = t.requests(1, 1, "dead");
    t.step(0, [dead!]);
    t.step(3_000, [], [holds("dead", [dead!.id])]); // its last heartbeat: the process is killed after it
    const [mine] = t.requests(1, 1, "me");
    const waiting = t.step(3_001, [mine!]);
    expect(waiting.granted).toEqual([]);
    expect(waiting.wakeAt).toBe(3_000 + livenessMs(CONFIG)); // a time the model knows, not a look every 50 ms
    expect(t.step(3_000 + livenessMs(CONFIG) - 1, [mine!]).granted).toEqual([]);
    expect(t.step(3_000 + livenessMs(CONFIG), [mine!]).granted).toEqual([mine!.id]);
    expect(t.steady().spent).toBe(2); // the dead one's request may have been counted: its cost stays
  });

  it("an old-format ticket without an owner record lives to its exp", () => {
    const t = new Trace(oneSlot);
    const [mine] = t.requests(1, 1, "me");
    t.step(0);
    // As a release that kept no owners wrote it: a ticket of a sixth of a steady window.
    t.state!.tickets["old-process/1#1"] = { cls: "C", cost: 1, at: 0, exp: 10_000, burst: 0, steady: 0, live: 1 };
    const waiting = t.step(1, [mine!]);
    expect(waiting.granted).toEqual([]);
    expect(waiting.wakeAt).toBe(10_000);
    expect(t.step(9_999, [mine!]).granted).toEqual([]);
    expect(t.step(10_000, [mine!]).granted).toEqual([mine!.id]);
  });

  it("a ticket whose owner has no record counts for the liveness period at most (an older release dropped the records)", () => {
    const t = new Trace(oneSlot);
    const [mine] = t.requests(1, 1, "me");
    t.step(0);
    t.state!.tickets["stripped/1#1"] = { cls: "C", cost: 1, at: 0, exp: 60_000, burst: 0, steady: 0, live: 1 };
    expect(t.step(1, [mine!]).wakeAt).toBe(1 + livenessMs(CONFIG));
    expect(t.step(1 + livenessMs(CONFIG), [mine!]).granted).toEqual([mine!.id]);
  });

  it("an owner is kept while it has tickets, and pruned with its last one", () => {
    const t = new Trace(oneSlot);
    const [a] = t.requests(1, 1, "a");
    t.step(0, [a!]);
    expect(t.state!.owners).toEqual({ "a#": 0 });
    t.step(2_000, [], [holds("a", [a!.id])]);
    expect(t.state!.owners).toEqual({ "a#": 2_000 });
    t.step(3_000, [], [t.answer(a!.id, 3_000), holds("a", [])]);
    expect(t.state!.owners).toBeUndefined();
  });
});

describe("bounded waits", () => {
  it("a planted state with ends at 1e300 and a lowering in the future waits at most a window and a guard", () => {
    const t = new Trace();
    const planted = {
      opened: 0,
      endsAfter: 1e300,
      endsBy: 1e300,
      heard: true,
      spent: 1e9,
      own: 1e9,
      carry: 0,
      carryUntil: 1e300,
      limit: 10,
    };
    t.state = {
      classes: { C: { burst: { ...planted }, steady: { ...planted, limit: 150 } } },
      tickets: {},
      cap: { value: 0, ceiling: null, loweredAt: 1e300, good: 0 },
    };
    const step = t.step(0, t.requests(1));
    expect(step.wakeAt).toBeLessThanOrEqual(60_000 + 1_000);
    expect(t.state.cap.value).toBe(1);
  });

  it("decides without changing the state it was given", () => {
    const t = new Trace();
    t.step(0, t.requests(3));
    const frozen = structuredClone(t.state);
    decide(t.state, [], t.requests(3), 5, CONFIG);
    expect(t.state).toEqual(frozen);
  });
});
