import { describe, expect, it } from 'vitest';
import { jsonForScript } from './safe-json.js';

describe('jsonForScript', () => {
  const hostile = {
    a: '</script><script>alert(1)</script>',
    b: '<!-- x -->',
    c: 'line\u2028sep\u2029',
    d: 'a&b',
  };

  it('contains no character that could end or confuse the script element', () => {
    const text = jsonForScript(hostile);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
  });

  it('still parses back to the same value', () => {
    expect(JSON.parse(jsonForScript(hostile))).toEqual(hostile);
    // eslint-disable-next-line no-new-func -- proves the text is a valid JS expression too
    expect(new Function(`return ${jsonForScript(hostile)}`)()).toEqual(hostile);
  });

  it.each([
    ['<', { a: 'x<y' }],
    ['>', { a: 'x>y' }],
    ['&', { a: 'x&y' }],
    ['U+2028', { a: 'x\u2028y' }],
    ['U+2029', { a: 'x\u2029y' }],
  ])('escapes a lone %s in otherwise plain data', (_name, value) => {
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('leaves plain data as JSON.stringify writes it', () => {
    const plain = { items: [{ id: 1, title: 'Item "1"', note: 'é ü \\ /' }], n: null };
    expect(jsonForScript(plain)).toBe(JSON.stringify(plain));
    expect(jsonForScript(undefined)).toBe('null');
  });
});
