import { describe, expect, it } from 'vitest';
import { payloadHash } from './payload-hash.js';
import { decodeRecord, encodeRecord } from './payload-records.js';

describe('payload records', () => {
  it('round-trip with the protocol version', () => {
    const line = encodeRecord({ type: 'error', segment: 'item', digest: 'abc' });
    expect(line.endsWith('\n')).toBe(true);
    expect(decodeRecord(line.trim())).toEqual({
      ok: true,
      record: { type: 'error', segment: 'item', digest: 'abc', v: 1 },
    });
  });

  it.each([
    ['not JSON', '{'],
    ['an array', '[1]'],
    ['a future version', '{"type":"end","v":2}'],
    ['no version', '{"type":"end"}'],
    ['an unknown type', '{"type":"script","v":1}'],
  ])('rejects %s', (_name, line) => {
    expect(decodeRecord(line).ok).toBe(false);
  });
});

describe('payloadHash', () => {
  it('is stable and differs when any input differs', () => {
    const base = payloadHash({ tree: '1;shop', prefetch: undefined });
    expect(payloadHash({ tree: '1;shop', prefetch: undefined })).toBe(base);
    expect(payloadHash({ tree: '1;shop', prefetch: 'auto' })).not.toBe(base);
    expect(payloadHash({ tree: '1;shop/x', prefetch: undefined })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-z]{14}$/);
  });
});
