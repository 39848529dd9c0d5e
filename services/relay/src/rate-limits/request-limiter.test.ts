import { describe, expect, it } from 'vitest';
import { addressKey, clientRateLimited } from './client-limits.js';
import { createRequestLimiter } from './request-limiter.js';

describe('createRequestLimiter', () => {
  it('allows `limit` requests per window and says how long until the window ends', () => {
    const limiter = createRequestLimiter({ limit: 2, windowMs: 1000, maxKeys: 10 })!;
    expect([limiter.take('a', 0), limiter.take('a', 100), limiter.take('a', 400)]).toEqual([
      0, 0, 600,
    ]);
    expect(limiter.take('b', 400)).toBe(0);
    expect(limiter.take('a', 1000)).toBe(0);
  });

  it('is no limiter at all with a limit of 0', () => {
    expect(createRequestLimiter({ limit: 0, windowMs: 1000, maxKeys: 10 })).toBeUndefined();
  });

  it('keeps at most maxKeys windows, forgetting the oldest first', () => {
    const limiter = createRequestLimiter({ limit: 1, windowMs: 10_000, maxKeys: 3 })!;
    for (const key of ['a', 'b', 'c']) limiter.take(key, 0);
    expect(limiter.take('c', 1)).toBeGreaterThan(0);
    limiter.take('d', 2);
    expect(limiter.take('a', 3)).toBe(0);
    expect(limiter.take('c', 4)).toBeGreaterThan(0);
  });
});

describe('client limits', () => {
  it('keys IPv4 by address (mapped forms too) and IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe(addressKey('::ffff:203.0.113.7'));
    expect(addressKey('203.0.113.7')).not.toBe(addressKey('203.0.113.8'));
    expect(addressKey('2001:db8::1')).toBe(addressKey('2001:db8:0:0:ffff::2'));
    expect(addressKey('2001:db8::1')).not.toBe(addressKey('2001:db8:0:1::1'));
  });

  it('answers in Sentry vocabulary, rounding the wait up to whole seconds', () => {
    const error = clientRateLimited('key', 1200);
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({
      'retry-after': '2',
      'x-sentry-rate-limits': '2::key:relay_project_key',
    });
  });
});
