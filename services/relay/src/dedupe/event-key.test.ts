import { describe, expect, it } from 'vitest';
import { eventKeyOf } from './event-key.js';

describe('eventKeyOf', () => {
  it('reads an SDK event id, with or without dashes and in either case, as one key per project key', () => {
    const id = '9ec79c33ec9942ab8353589fcb2e04dc';
    expect(eventKeyOf('7:abc', id)).toBe(`7:abc:${id}`);
    expect(eventKeyOf('7:abc', '9EC79C33-EC99-42AB-8353-589FCB2E04DC')).toBe(`7:abc:${id}`);
    expect(eventKeyOf('8:def', id)).not.toBe(eventKeyOf('7:abc', id));
  });

  it('gives no key for an id it cannot trust to be unique', () => {
    for (const value of [
      undefined,
      42,
      '',
      'abc',
      'z'.repeat(32),
      '1'.repeat(33),
      `${'a'.repeat(32)}-`,
    ])
      expect(eventKeyOf('7:abc', value)).toBeUndefined();
  });
});
