/**
 * Where a request says which DSN it is for: `sentry_key` in the query, an `X-Sentry-Auth` or
 * `Authorization: Sentry ...` header, or the envelope header's `dsn`. All given forms must agree.
 * Pure (takes plain values, not framework objects).
 */
import { parseDsn } from '../dsn/dsn.js';

/** The public key and (when known) project id a request claims. */
export interface ClaimedAuth {
  readonly publicKey: string;
  readonly projectId?: string | undefined;
}

/** Raw inputs. */
export interface AuthInputs {
  readonly query: Readonly<Record<string, unknown>>;
  readonly sentryAuthHeader?: string | undefined;
  readonly authorizationHeader?: string | undefined;
  readonly envelopeDsn?: unknown;
}

/** Parses `Sentry sentry_key=..., sentry_version=7` (case-insensitive prefix). */
export function parseSentryAuthHeader(header: string | undefined): string | undefined {
  if (!header || !/^sentry\s/i.test(header.trim())) return undefined;
  for (const part of header.trim().slice(6).split(',')) {
    const [name, value] = part.split('=').map((piece) => piece.trim());
    if (name === 'sentry_key' && value) return value;
  }
  return undefined;
}

/** Collects every claimed key; 'conflict' when they disagree, 'invalid-dsn' for a bad DSN. */
export function claimedAuth(inputs: AuthInputs): ClaimedAuth | 'none' | 'conflict' | 'invalid-dsn' {
  const keys: string[] = [];
  let projectId: string | undefined;
  const queryKey = inputs.query.sentry_key;
  if (typeof queryKey === 'string' && queryKey) keys.push(queryKey);
  const headerKey =
    parseSentryAuthHeader(inputs.sentryAuthHeader) ??
    parseSentryAuthHeader(inputs.authorizationHeader);
  if (headerKey) keys.push(headerKey);
  if (typeof inputs.envelopeDsn === 'string') {
    const dsn = parseDsn(inputs.envelopeDsn);
    if (!dsn) return 'invalid-dsn';
    keys.push(dsn.publicKey);
    projectId = dsn.projectId;
  }
  if (keys.length === 0) return 'none';
  if (keys.some((key) => key !== keys[0])) return 'conflict';
  return { publicKey: keys[0]!, projectId };
}
