/**
 * The relay's error codes: stable, documented in docs/relay.md (never reuse a retired code),
 * each with its HTTP status. Responses carry `{ "error": { "code", "message" } }` and the
 * message in `X-Sentry-Error`, as Sentry ingest does.
 */

/** Every error the relay answers with, and its status. */
export const RELAY_ERRORS = {
  RELAY_NOT_CONFIGURED: 503,
  RELAY_AUTH_MISSING: 403,
  RELAY_AUTH_CONFLICT: 403,
  RELAY_DSN_MISSING: 400,
  RELAY_DSN_INVALID: 403,
  RELAY_DSN_NOT_ALLOWED: 403,
  RELAY_ORIGIN_NOT_ALLOWED: 403,
  RELAY_ENVELOPE_MALFORMED: 400,
  RELAY_ENCODING_INVALID: 400,
  RELAY_ENCODING_UNSUPPORTED: 415,
  RELAY_BODY_TOO_LARGE: 413,
  RELAY_ENVELOPE_TOO_LARGE: 413,
  RELAY_ITEM_TOO_LARGE: 413,
  RELAY_HEADER_TOO_LARGE: 413,
  RELAY_RATE_LIMITED: 429,
  RELAY_CLIENT_RATE_LIMITED: 429,
  RELAY_KEY_RATE_LIMITED: 429,
  RELAY_SPOOL_FULL: 503,
  RELAY_OVERLOADED: 503,
  RELAY_SPOOL_SHARE_EXCEEDED: 429,
  RELAY_SPOOL_WRITE_FAILED: 500,
  RELAY_SHUTTING_DOWN: 503,
  RELAY_NOT_FOUND: 404,
  RELAY_INTERNAL: 500,
} as const;

/** One error code. */
export type RelayErrorCode = keyof typeof RELAY_ERRORS;

/** An error with a stable code; mapped to HTTP in one place (`server.ts` error handler). */
export class RelayError extends Error {
  readonly code: RelayErrorCode;
  readonly status: number;
  /** Extra response headers (`Retry-After` on a 429, `Connection: close` when stopping). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: RelayErrorCode,
    message: string,
    options?: { cause?: unknown; headers?: Readonly<Record<string, string>> },
  ) {
    super(message, options);
    this.name = 'RelayError';
    this.code = code;
    this.status = RELAY_ERRORS[code];
    this.headers = options?.headers ?? {};
  }
}

/** The JSON body of an error response. */
export function errorBody(error: RelayError): { error: { code: RelayErrorCode; message: string } } {
  return { error: { code: error.code, message: error.message } };
}
