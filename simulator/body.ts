/**
 * Reading and parsing request bodies: a size cap (413), the JSON content type and JSON syntax (400).
 */
import type { IncomingMessage } from "node:http";

/** Outcome of reading a body within the cap. */
export type BodyRead = { kind: "ok"; text: string } | { kind: "tooLarge" };

/**
 * Decision: bodies past the cap are read and discarded up to this many bytes so the client gets its
 * 413 instead of a reset while it is still sending; past it the connection is destroyed.
 */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024; // 64 MiB

/** Reads the whole body; `tooLarge` once it passes `maxBytes` (the rest is drained and dropped). */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = declared > maxBytes;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      if (size > DRAIN_LIMIT_BYTES) {
        req.destroy();
        return;
      }
      if (!tooLarge) chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? { kind: "tooLarge" } : { kind: "ok", text: Buffer.concat(chunks).toString("utf8") }));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(new Error("request aborted while its body was read"));
    });
  });
}

/** Outcome of parsing a body as the JSON a request of ops 1-4 must carry (spec, rule 1). */
export type ParsedBody = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * spec, Conventions: "Requests with a body send `Content-Type: application/json`". An empty body is
 * `undefined` (the engine answers 400 when the operation needs one). Decision (not shown in spec): a
 * body with another content type, or that is not JSON, is a 400.
 */
export function parseJsonBody(text: string, contentType: string | undefined): ParsedBody {
  if (text.length === 0) return { ok: true, value: undefined };
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    return { ok: false, message: `Content-Type must be application/json, got "${contentType ?? "none"}"` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: `malformed JSON (${(err as Error).message})` };
  }
}

/**
 * Decision (not shown in spec): the request log keeps a parsed body only up to this nesting depth.
 * Copying and serialising the log recurse, so a deeper body (any client can send `[[[[...]]]]`)
 * would make `/_sim/requests` fail with a stack overflow for as long as the log holds it.
 */
const MAX_LOGGED_DEPTH = 64;

/** True when `value` nests arrays/objects deeper than `limit` (iterative: the value may be deep). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The body as it goes into the request log: JSON when it parses, else the raw text, null when empty.
 * JSON nested deeper than `MAX_LOGGED_DEPTH` is kept as its raw text (see there).
 */
export function bodyForLog(text: string): unknown {
  if (text.length === 0) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return nestsDeeperThan(parsed, MAX_LOGGED_DEPTH) ? text : parsed;
  } catch {
    return text;
  }
}
