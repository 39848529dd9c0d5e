import { describe, expect, it } from 'vitest';
import { encodeTreeHeader, parseTreeHeader, segmentKey } from './tree-header.js';

describe('Strata-Tree', () => {
  it('round-trips keys', () => {
    const keys = [
      'shop',
      'section',
      segmentKey('item', { params: { id: '4 2/x' }, search: { q: "o'r" } }),
    ];
    expect(parseTreeHeader(encodeTreeHeader(keys))).toEqual({ ok: true, keys });
  });

  it('builds keys from sorted read names, percent-encoding values', () => {
    expect(segmentKey('list', { params: {}, search: { q: 'a b', cat: 'x(y)' } })).toBe(
      'list(s.cat=x%28y%29&s.q=a%20b)',
    );
    expect(segmentKey('layout', { params: {}, search: {} })).toBe('layout');
  });

  it('accepts an empty tree', () => {
    expect(parseTreeHeader('1;')).toEqual({ ok: true, keys: [] });
  });

  it.each([
    ['no version', 'shop/section', 'malformed'],
    ['another version', '2;shop', 'malformed'],
    ['an empty segment', '1;shop//item', 'malformed'],
    ['an upper-case id', '1;Shop', 'malformed'],
    ['a raw space', '1;item(p.id=4 2)', 'malformed'],
    ['an unclosed key', '1;item(p.id=1', 'malformed'],
    ['JSON', '1;{"a":1}', 'malformed'],
    ['a script', '1;<script>', 'malformed'],
    ['too many segments', `1;${Array.from({ length: 33 }, () => 'a').join('/')}`, 'tooLarge'],
    ['too many characters', `1;${'a'.repeat(5000)}`, 'tooLarge'],
  ])('refuses %s', (_name, value, kind) => {
    const parsed = parseTreeHeader(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? null : parsed.error.kind).toBe(kind);
  });
});
