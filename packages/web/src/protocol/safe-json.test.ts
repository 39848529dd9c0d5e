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
});
