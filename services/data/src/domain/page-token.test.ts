import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPageTokens, type TokenFilter } from './page-token.js';

const SECRET = 'a-secret-of-at-least-16';
const FILTER = { categoryId: 'cat-1', query: 'amber' };
const tokens = createPageTokens(SECRET);

describe('page tokens', () => {
  it('round-trips a cursor for the same query', () => {
    const token = tokens.encode({ afterId: 42 }, FILTER);
    expect(tokens.decode(token, FILTER)).toEqual({ afterId: 42 });
  });

  it('is opaque: the id is not readable as plain text', () => {
    expect(tokens.encode({ afterId: 42 }, FILTER)).not.toContain('42');
  });

  it('is the same token from every replica with the key, remembered or not', () => {
    const first = tokens.encode({ afterId: 7 }, FILTER);
    const again = tokens.encode({ afterId: 7 }, FILTER);
    const elsewhere = createPageTokens(SECRET);
    expect(again).toBe(first);
    expect(elsewhere.encode({ afterId: 7 }, FILTER)).toBe(first);
    expect(elsewhere.decode(first, FILTER)).toEqual({ afterId: 7 });
    expect(tokens.encode({ afterId: 8 }, FILTER)).not.toBe(first);
  });

  it('keeps a long query working without remembering it', () => {
    const filter = { categoryId: '', query: 'q'.repeat(300) };
    const token = tokens.encode({ afterId: 3 }, filter);
    expect(tokens.decode(token, filter)).toEqual({ afterId: 3 });
    expect(tokens.decode(token, { ...filter, query: 'q'.repeat(299) })).toBeNull();
  });

  it.each<[string, (t: string) => string, string, TokenFilter]>([
    ['another key', (t) => t, 'another-secret-0123456', FILTER],
    ['another category', (t) => t, SECRET, { ...FILTER, categoryId: 'cat-2' }],
    ['another query', (t) => t, SECRET, { ...FILTER, query: 'amber ' }],
    [
      'a flipped signature byte',
      (t) => t.slice(0, -2) + (t.endsWith('A') ? 'B' : 'A') + t.slice(-1),
      SECRET,
      FILTER,
    ],
    ['a missing signature', (t) => t.split('.')[0] ?? '', SECRET, FILTER],
    ['an extra part', (t) => `${t}.x`, SECRET, FILTER],
    ['an overlong token', (t) => t + 'A'.repeat(600), SECRET, FILTER],
  ])('rejects a token checked with %s', (_name, mutate, secret, filter) => {
    const token = mutate(tokens.encode({ afterId: 42 }, FILTER));
    expect(createPageTokens(secret).decode(token, filter)).toBeNull();
  });

  it('rejects a correctly signed body of the wrong shape', () => {
    const body = Buffer.from(JSON.stringify({ v: 1, a: -5, q: 'x' })).toString('base64url');
    const signature = createHmac('sha256', SECRET).update(body).digest('base64url');
    expect(tokens.decode(`${body}.${signature}`, FILTER)).toBeNull();
  });
});
