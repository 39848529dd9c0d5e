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

  it('accepts every key the server builds, whatever the names and values', () => {
    const awkward = ['', ' ', '()&=', "!*'~", '%', '%zz', '\u2028', 'ü/é', 'x'.repeat(200)];
    const keys = awkward.map((text, index) =>
      segmentKey(`seg-${index}`, { params: { [text || 'p']: text }, search: { [text]: text } }),
    );
    expect(parseTreeHeader(encodeTreeHeader(keys))).toEqual({ ok: true, keys });
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
    ['a part that is not a param or search value', '1;shop(b)', 'malformed'],
    ['an unknown part prefix', '1;shop/item-detail(x.id=1)', 'malformed'],
    ['a part without "="', '1;item(p.id)', 'malformed'],
    ['empty parentheses', '1;item()', 'malformed'],
    ['an empty part', '1;item(p.id=1&)', 'malformed'],
    ['a stray "="', '1;item(p.id=1=2)', 'malformed'],
    ['a bare "%"', '1;item(s.q=%)', 'malformed'],
    ['a "%" without two hex digits', '1;item(s.q=%4g)', 'malformed'],
    ['nested parentheses', '1;item(s.q=(x))', 'malformed'],
    ['an over-long key', `1;item(s.q=${'a'.repeat(1100)})`, 'malformed'],
    ['too many segments', `1;${Array.from({ length: 33 }, () => 'a').join('/')}`, 'tooLarge'],
    ['too many characters', `1;${'a'.repeat(5000)}`, 'tooLarge'],
  ])('refuses %s', (_name, value, kind) => {
    const parsed = parseTreeHeader(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? null : parsed.error.kind).toBe(kind);
  });
});
