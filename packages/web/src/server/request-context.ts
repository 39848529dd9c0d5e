/**
 * Per-request facts the renderers share: the trace id (taken from an incoming sentry-trace or
 * W3C traceparent header when present, so one id follows the request everywhere), cookies and
 * the loader input.
 */
import { randomUUID } from 'node:crypto';

// Version 00 only, as the telemetry side continues it; all-zero ids are invalid.
const TRACEPARENT = /^00-(?!0{32})([\da-f]{32})-(?!0{16})[\da-f]{16}-[\da-f]{2}$/;
const SENTRY_TRACE = /^(?!0{32})([\da-f]{32})-[\da-f]{16}(?:-[01])?$/;

/**
 * The request's trace id: continued from the caller when it sent one, new otherwise. The same
 * rules as with telemetry on, so the id does not depend on whether it is: sentry-trace wins (a
 * caller sending both is a Sentry SDK), and a repeated header is invalid.
 */
export function traceIdOf(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): string {
  const single = (value: string | string[] | undefined) =>
    typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (
    SENTRY_TRACE.exec(single(headers['sentry-trace']))?.[1] ??
    TRACEPARENT.exec(single(headers['traceparent']))?.[1] ??
    newTraceId()
  );
}

/**
 * 32 random hex digits (122 random bits: a v4 UUID without its dashes). `randomUUID` draws from
 * a cached entropy pool, where `randomBytes(16)` makes a system call on every request.
 */
export function newTraceId(): string {
  return randomUUID().replace(/-/g, '');
}

/** Parses a Cookie header (first value wins, values percent-decoded when valid). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator <= 0) continue;
    const name = pair.slice(0, separator).trim();
    if (name in cookies) continue;
    const raw = pair
      .slice(separator + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      cookies[name] = decodeURIComponent(raw);
    } catch {
      cookies[name] = raw;
    }
  }
  return cookies;
}
