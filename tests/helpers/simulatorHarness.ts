/**
 * Test harness: an in-process simulator on a loopback port 0, a fake clock for deterministic
 * windows, and a small HTTP caller over real sockets (undici).
 */
import { Agent, request } from "undici";
import { startSimulator, type RunningSimulator, type SimulatorOptions } from "../../simulator";

/** A clock the test moves by hand, so window tests never depend on wall time. */
export class FakeClock {
  constructor(public ms = 1_700_000_000_000) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** One HTTP answer. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  json<T = any>(): T;
}

/** What a call can send. */
export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. Default `demo-token`. */
  token?: string | null;
  /** JSON body (serialised, with `Content-Type: application/json`). */
  body?: unknown;
  /** Raw body text, sent as is (with `contentType` when given). */
  rawBody?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A running simulator and a caller bound to it. */
export interface Harness {
  sim: RunningSimulator;
  clock: FakeClock;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

/** Starts a simulator on a free loopback port with a fake clock (unless `now` is given). */
export async function startHarness(options: Partial<SimulatorOptions> = {}): Promise<Harness> {
  const clock = new FakeClock();
  const sim = await startSimulator({ now: clock.now, ...options });
  const agent = new Agent({ keepAliveTimeout: 1000 });
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...o.headers };
    const token = o.token === undefined ? "demo-token" : o.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | Buffer | undefined;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers["content-type"] = o.contentType ?? "application/json";
    } else if (o.rawBody !== undefined) {
      body = o.rawBody;
      if (o.contentType) headers["content-type"] = o.contentType;
    }
    const res = await request(`${sim.url}${path}`, { method: method as "GET", headers, body, dispatcher: agent });
    const text = await res.body.text();
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(", ") : String(v);
    return { status: res.statusCode, headers: flat, text, json: () => JSON.parse(text) };
  };
  let closed: Promise<void> | undefined;
  return {
    sim,
    clock,
    call,
    close() {
      // Idempotent: a suite's afterEach may close a harness a test already closed.
      closed ??= sim.close().then(() => agent.close());
      return closed;
    },
  };
}

/** `YYYY-MM-DD HH:MM:SS` (spec, Conventions). */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** A UUID (spec, Errors: `trace_id` is a UUID). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
