/**
 * Scrubbing of credentials from what errors and debug lines keep. The token is only ever written into
 * the `Authorization` header; these make sure it cannot leak back out through an error message, a
 * wrapped undici error, a stack or a debug line.
 */

export const REDACTED = "[REDACTED]";

// `Authorization: Bearer abc`, `authorization=abc`, `"authorization":"abc"`: keep the name and the
// scheme, drop the credential (unless it is already redacted).
const AUTHORIZATION_VALUE = /(authorization["']?\s*[:=]\s*["']?)(bearer\s+)?(?!\[REDACTED\]|bearer\s)[^\s,;"'}\]]+/gi;
// A bearer credential on its own, e.g. inside a header dump.
const BEARER_VALUE = /\b(bearer\s+)(?!\[REDACTED\])[A-Za-z0-9\-._~+/]+=*/gi;

/** Replaces each secret, and anything like an `Authorization` value or a bearer credential, with `[REDACTED]`. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // An empty secret would match everywhere; a very short one is not a credential.
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out.replace(AUTHORIZATION_VALUE, `$1$2${REDACTED}`).replace(BEARER_VALUE, `$1${REDACTED}`);
}

// Fields of Node and undici errors that help diagnose a network failure and hold no request data.
const SAFE_CAUSE_FIELDS = ["code", "errno", "syscall", "address", "port", "name"] as const;

/**
 * A copy of an error safe to keep as `cause`: message and stack scrubbed, only diagnostic fields, nested
 * causes likewise. Never the original, whose other properties (request options, headers) could hold the token.
 */
export function sanitizeCause(cause: unknown, secrets: readonly string[], depth = 0): unknown {
  if (cause === undefined || cause === null) return undefined;
  if (!(cause instanceof Error) && !(typeof cause === "object" && "message" in cause)) {
    // A thrown non-Error (a string, a number, a plain object) reads as JavaScript prints it.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    return redactText(String(cause), secrets);
  }
  const source = cause as Error & Record<string, unknown>;
  const copy = new Error(redactText(String(source.message ?? ""), secrets)) as Error & Record<string, unknown>;
  const target = copy as unknown as Record<string, unknown>;
  for (const field of SAFE_CAUSE_FIELDS) {
    const value = source[field];
    if (typeof value === "string") target[field] = redactText(value, secrets);
    else if (typeof value === "number") target[field] = value;
  }
  copy.stack = typeof source.stack === "string" ? redactText(source.stack, secrets) : `${copy.name}: ${copy.message}`;
  if (depth < 3 && source.cause !== undefined) {
    Object.defineProperty(copy, "cause", {
      value: sanitizeCause(source.cause, secrets, depth + 1),
      enumerable: false,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
