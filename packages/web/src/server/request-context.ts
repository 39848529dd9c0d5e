/**
 * Per-request facts the renderers share: the trace id (taken from an incoming W3C traceparent
 * or sentry-trace header when present, so one id follows the request everywhere), cookies and
 * the loader input.
 */
import { randomUUID } from 'node:crypto';

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
const SENTRY_TRACE = /^([\da-f]{32})-[\da-f]{16}(?:-[01])?$/;

/** The request's trace id: continued from the caller when it sent one, new otherwise. */
export function traceIdOf(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): string {
  const first = (value: string | string[] | undefined) =>
    (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
  const fromTraceparent = TRACEPARENT.exec(first(headers['traceparent']) ?? '')?.[1];
  const fromSentry = SENTRY_TRACE.exec(first(headers['sentry-trace']) ?? '')?.[1];
  const id = fromTraceparent ?? fromSentry;
  return id && !/^0+$/.test(id) ? id : newTraceId();
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
