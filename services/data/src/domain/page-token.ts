/**
 * Opaque, tamper-evident ListItems page tokens: the cursor and a fingerprint of the query it
 * belongs to, signed with HMAC-SHA256. A token edited by hand, signed with another key, or
 * replayed with different filters is rejected.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where the next page starts and which query the token was issued for. */
export interface PageCursor {
  /** Items with a greater id come next. */
  readonly afterId: number;
}

interface TokenBody {
  v: 1;
  a: number;
  q: string;
}

function queryFingerprint(filter: { categoryId: string; query: string }): string {
  return createHmac('sha256', 'strata-query')
    .update(`${filter.categoryId}\n${filter.query}`)
    .digest('base64url')
    .slice(0, 16);
}

function sign(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** Encodes a cursor for the given query. */
export function encodePageToken(
  secret: string,
  cursor: PageCursor,
  filter: { categoryId: string; query: string },
): string {
  const body: TokenBody = { v: 1, a: cursor.afterId, q: queryFingerprint(filter) };
  const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${encoded}.${sign(secret, encoded).toString('base64url')}`;
}

/** Decodes a token; returns null for anything not issued by us for this query. */
export function decodePageToken(
  secret: string,
  token: string,
  filter: { categoryId: string; query: string },
): PageCursor | null {
  if (token.length > 512) return null;
  const [encoded, signature, ...rest] = token.split('.');
  if (!encoded || !signature || rest.length > 0) return null;
  const expected = sign(secret, encoded);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!isTokenBody(body) || body.q !== queryFingerprint(filter)) return null;
  return { afterId: body.a };
}

function isTokenBody(value: unknown): value is TokenBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return (
    body.v === 1 &&
    Number.isSafeInteger(body.a) &&
    (body.a as number) >= 0 &&
    typeof body.q === 'string'
  );
}
