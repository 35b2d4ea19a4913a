/**
 * What the simulator received, per account, for tests: counts by operation and status, and each
 * call's path, query and body. Never the `Authorization` header: credentials are never kept.
 */

/** Status of a logged call: an HTTP status, or how the connection was dropped. */
export type LoggedStatus = number | "dropped-before" | "dropped-after";

/** One API call as received. */
export interface LoggedCall {
  /** Order of arrival across all accounts. */
  seq: number;
  /** Simulator clock (ms) when the response was settled. */
  at: number;
  method: string;
  /** Path as sent, percent-encoded, without the query. */
  path: string;
  /** Query parameters; a repeated name gives an array. */
  query: Record<string, string | string[]>;
  /** Parsed JSON body, the raw text when it was not JSON, or null when empty. */
  body: unknown;
  status: LoggedStatus;
  /** Rate cost counted (0 when the request was not admitted). */
  cost: number;
  /** The injected fault, if any. */
  fault?: string;
}

/** Calls of one operation. */
export interface OperationLog {
  name: string;
  count: number;
  byStatus: Record<string, number>;
  calls: LoggedCall[];
}

/**
 * One account's log. `operations` is keyed by operation number; requests that matched no operation
 * are under the key `unmatched`.
 */
export interface RequestLog {
  account: string;
  total: number;
  byStatus: Record<string, number>;
  operations: Record<string, OperationLog>;
}

/** Decision: each operation keeps its last 5000 calls; counts are never truncated. */
const MAX_CALLS_PER_OPERATION = 5000;

/**
 * Account name under which requests with a missing or unknown token are logged (they have no
 * account).
 */
export const ANONYMOUS = "anonymous";

/** Logs of every account. */
export class RequestLogBook {
  private logs = new Map<string, RequestLog>();
  private seq = 0;

  /** Records one settled call. `op` is undefined when the request matched no operation. */
  record(account: string, op: { number: number; name: string } | undefined, call: Omit<LoggedCall, "seq">): void {
    const log = this.logFor(account);
    const key = op ? String(op.number) : "unmatched";
    const opLog = (log.operations[key] ??= { name: op?.name ?? "unmatched", count: 0, byStatus: {}, calls: [] });
    const status = String(call.status);
    log.total += 1;
    log.byStatus[status] = (log.byStatus[status] ?? 0) + 1;
    opLog.count += 1;
    opLog.byStatus[status] = (opLog.byStatus[status] ?? 0) + 1;
    opLog.calls.push({ seq: ++this.seq, ...call });
    if (opLog.calls.length > MAX_CALLS_PER_OPERATION) opLog.calls.shift();
  }

  /** A deep copy of one account's log (empty when it has none yet). */
  snapshot(account: string): RequestLog {
    return structuredClone(this.logs.get(account) ?? emptyLog(account));
  }

  /** Forgets everything. */
  clear(): void {
    this.logs.clear();
    this.seq = 0;
  }

  private logFor(account: string): RequestLog {
    let log = this.logs.get(account);
    if (!log) this.logs.set(account, (log = emptyLog(account)));
    return log;
  }
}

function emptyLog(account: string): RequestLog {
  return { account, total: 0, byStatus: {}, operations: {} };
}
