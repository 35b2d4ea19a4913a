/** Small helpers that write responses; every JSON response goes through `sendJson`. */
import type { ServerResponse } from "node:http";
import { systemClock } from "../provider/infrastructure/clock";

/** Writes `body` as JSON with `status` and extra headers. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** Writes a status without a body (204). */
export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers);
  res.end();
}

/** Query parameters as an object; a repeated name gives an array. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/**
 * spec, Conventions: timestamps are `YYYY-MM-DD HH:MM:SS`. Decision (not shown in spec: the time
 * zone): the simulator writes UTC.
 */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/**
 * Resolves after `ms` real milliseconds (fault delays are real time, not the simulator clock), on
 * the client's precise timer: a plain timer fires 1-2 ms late, which at the benchmark's 1/40 scale
 * would make a "1 s" service delay (25 ms) take 1.05 platform seconds.
 */
export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => systemClock.setPreciseTimer!(resolve, ms)) : Promise.resolve();
}
