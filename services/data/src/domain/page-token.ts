/**
 * Opaque, tamper-evident ListItems page tokens: the cursor and a fingerprint of the query it
 * belongs to, signed with HMAC-SHA256. A token edited by hand, signed with another key, or
 * replayed with different filters is rejected.
 *
 * Both HMACs are pure functions of their inputs, and the same few queries and pages are asked
 * for again and again (every view of a listing's first page issues the token for its second),
 * so recent fingerprints and tokens are remembered: each `createHmac` is a visible share of a
 * read. Checking a token given back is never skipped.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { RecentResults } from './recent-results.js';

/** Where the next page starts and which query the token was issued for. */
export interface PageCursor {
  /** Items with a greater id come next. */
  readonly afterId: number;
}

/** The filters a token is bound to. */
export interface TokenFilter {
  readonly categoryId: string;
  readonly query: string;
}

/** Issues and checks the page tokens signed with one key. */
export interface PageTokens {
  /** The token for the page after `cursor` of the given query. */
  encode(cursor: PageCursor, filter: TokenFilter): string;
  /** The cursor a token holds; null for anything not issued with this key for this query. */
  decode(token: string, filter: TokenFilter): PageCursor | null;
}

interface TokenBody {
  v: 1;
  a: number;
  q: string;
}

const MAX_TOKEN_LENGTH = 512;
// Fingerprint inputs are the category and the query (at most 200 characters when valid).
const REMEMBERED = 512;
const MAX_REMEMBERED_INPUT = 256;

/** Page tokens signed with `secret`. */
export function createPageTokens(secret: string): PageTokens {
  const fingerprints = new RecentResults<string>(REMEMBERED, MAX_REMEMBERED_INPUT);
  const tokens = new RecentResults<string>(REMEMBERED, MAX_REMEMBERED_INPUT);
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest();

  const fingerprintOf = (filter: TokenFilter) => {
    const input = `${filter.categoryId}\n${filter.query}`;
    return fingerprints.get(input, () =>
      createHmac('sha256', 'strata-query').update(input).digest('base64url').slice(0, 16),
    );
  };

  return {
    encode(cursor, filter) {
      const fingerprint = fingerprintOf(filter);
      return tokens.get(`${cursor.afterId}\n${fingerprint}`, () => {
        const body: TokenBody = { v: 1, a: cursor.afterId, q: fingerprint };
        const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
        return `${encoded}.${sign(encoded).toString('base64url')}`;
      });
    },

    decode(token, filter) {
      if (token.length > MAX_TOKEN_LENGTH) return null;
      const [encoded, signature, ...rest] = token.split('.');
      if (!encoded || !signature || rest.length > 0) return null;
      const expected = sign(encoded);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let body: unknown;
      try {
        body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (!isTokenBody(body) || body.q !== fingerprintOf(filter)) return null;
      return { afterId: body.a };
    },
  };
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
