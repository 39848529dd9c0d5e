import { describe, expect, it } from 'vitest';
import { decodePageToken, encodePageToken } from './page-token.js';

const SECRET = 'a-secret-of-at-least-16';
const FILTER = { categoryId: 'cat-1', query: 'amber' };

describe('page tokens', () => {
  it('round-trips a cursor for the same query', () => {
    const token = encodePageToken(SECRET, { afterId: 42 }, FILTER);
    expect(decodePageToken(SECRET, token, FILTER)).toEqual({ afterId: 42 });
  });

  it('is opaque: the id is not readable as plain text', () => {
    expect(encodePageToken(SECRET, { afterId: 42 }, FILTER)).not.toContain('42');
  });

  it.each([
    ['another key', (t: string) => t, 'another-secret-0123456', FILTER],
    ['another category', (t: string) => t, SECRET, { ...FILTER, categoryId: 'cat-2' }],
    ['another query', (t: string) => t, SECRET, { ...FILTER, query: 'amber ' }],
    [
      'a flipped signature byte',
      (t: string) => t.slice(0, -2) + (t.endsWith('A') ? 'B' : 'A') + t.slice(-1),
      SECRET,
      FILTER,
    ],
    ['a missing signature', (t: string) => t.split('.')[0] ?? '', SECRET, FILTER],
    ['an extra part', (t: string) => `${t}.x`, SECRET, FILTER],
    ['an overlong token', (t: string) => t + 'A'.repeat(600), SECRET, FILTER],
  ])('rejects a token checked with %s', (_name, mutate, secret, filter) => {
    const token = mutate(encodePageToken(SECRET, { afterId: 42 }, FILTER));
    expect(decodePageToken(secret, token, filter)).toBeNull();
  });

  it('rejects a correctly signed body of the wrong shape', async () => {
    const { createHmac } = await import('node:crypto');
    const body = Buffer.from(JSON.stringify({ v: 1, a: -5, q: 'x' })).toString('base64url');
    const signature = createHmac('sha256', SECRET).update(body).digest('base64url');
    expect(decodePageToken(SECRET, `${body}.${signature}`, FILTER)).toBeNull();
  });
});
