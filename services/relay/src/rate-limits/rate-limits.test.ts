import { describe, expect, it } from 'vitest';
import {
  disabledUntil,
  formatRateLimits,
  isRateLimited,
  parseRetryAfter,
  updateRateLimits,
  type RateLimits,
} from './rate-limits.js';

// Conformance tables from the reference, section 3.5 (SDK tests), with the spec column where
// the spec and the JS SDK differ (section 3.5, "Extra cases").
describe('parseRetryAfter', () => {
  it.each([
    ['x', 0, 60_000],
    ['1337', 0, 1_337_000],
    ['2.5', 0, 2500],
    ['Wed, 21 Oct 2015 07:28:13 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'), 13_000],
  ])('%s at %d → %d ms', (header, now, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});

describe('disabledUntil / isRateLimited', () => {
  it.each<[RateLimits, number]>([
    [{}, 0],
    [{ error: 42 }, 42],
    [{ all: 42 }, 42],
  ])('disabledUntil(%j, error) = %d', (limits, until) => {
    expect(disabledUntil(limits, 'error')).toBe(until);
  });

  it.each<[RateLimits, number, boolean]>([
    [{}, 0, false],
    [{ error: 10 }, 42, false],
    [{ error: 50 }, 42, true],
    [{ all: 10 }, 42, false],
    [{ all: 50 }, 42, true],
  ])('isRateLimited(%j, error, %d) = %s', (limits, now, limited) => {
    expect(isRateLimited(limits, 'error', now)).toBe(limited);
  });

  it('limits client reports only through the all category', () => {
    expect(isRateLimited({ internal: 100 }, 'internal', 0)).toBe(false);
    expect(isRateLimited({ all: 100 }, 'internal', 0)).toBe(true);
  });
});

describe('updateRateLimits', () => {
  it.each<[string, RateLimits, number | undefined, string | null, string | null, RateLimits]>([
    ['retry-after only', {}, undefined, null, '42', {}],
    ['retry-after on 429', {}, 429, null, '42', { all: 42_000 }],
    ['single category', {}, undefined, '13:error', null, { error: 13_000 }],
    [
      'two categories',
      {},
      undefined,
      '13:error;transaction',
      null,
      { error: 13_000, transaction: 13_000 },
    ],
    [
      'two limits',
      {},
      undefined,
      '13:error,15:transaction',
      null,
      { error: 13_000, transaction: 15_000 },
    ],
    [
      'overlap keeps max',
      {},
      undefined,
      '13:error,15:transaction;error',
      null,
      { error: 15_000, transaction: 15_000 },
    ],
    ['no categories = all', {}, undefined, '13', null, { all: 13_000 }],
    ['unparsable delay = 60s', {}, undefined, 'x', null, { all: 60_000 }],
    [
      'keeps other limits',
      { error: 1337 },
      undefined,
      '13:transaction',
      null,
      { error: 1337, transaction: 13_000 },
    ],
    ['header wins over retry-after', {}, undefined, '13:error', '42', { error: 13_000 }],
    ['bare 429 = 60s', {}, 429, null, null, { all: 60_000 }],
    ['429 with header', {}, 429, '13:error', null, { error: 13_000 }],
    ['200 without headers', {}, 200, null, null, {}],
    ['scope without categories', {}, 429, '60::organization', null, { all: 60_000 }],
    [
      'metric_bucket custom',
      {},
      undefined,
      '42:metric_bucket:::custom',
      null,
      { metric_bucket: 42_000 },
    ],
    [
      'metric_bucket other namespaces',
      {},
      undefined,
      '42:metric_bucket:::namespace1;namespace2',
      null,
      {},
    ],
    [
      'metric_bucket no namespaces',
      {},
      undefined,
      '42:metric_bucket',
      null,
      { metric_bucket: 42_000 },
    ],
    [
      'metric_bucket empty namespaces',
      {},
      undefined,
      '42:metric_bucket:organization:quota_exceeded:',
      null,
      { metric_bucket: 42_000 },
    ],
    // Spec column where the SDK differs:
    ['keep the longest in one header', {}, undefined, '15:error,13:error', null, { error: 15_000 }],
    [
      'never shorten a stored limit',
      { error: 100_000 },
      undefined,
      '13:error',
      null,
      { error: 100_000 },
    ],
    ['fractional seconds', {}, undefined, '2.5:error', null, { error: 2500 }],
    ['all-unknown categories ignored', {}, undefined, '60:foo;bar', null, {}],
    [
      'spaces ignored, empty entries skipped',
      {},
      undefined,
      ' 13 : error , , 20::org',
      null,
      { error: 13_000, all: 20_000 },
    ],
    [
      'extra fields ignored',
      {},
      undefined,
      '5:span:key:reason:ns:future:more',
      null,
      { span: 5000 },
    ],
    [
      'spec example',
      {},
      429,
      '60:transaction:key, 2700:default;error;security:organization',
      null,
      { transaction: 60_000, default: 2_700_000, error: 2_700_000, security: 2_700_000 },
    ],
  ])('%s', (_name, start, status, header, retryAfter, expected) => {
    expect(
      updateRateLimits(
        start,
        { status, rateLimitsHeader: header, retryAfterHeader: retryAfter },
        0,
      ),
    ).toEqual(expected);
  });
});

describe('formatRateLimits', () => {
  it('formats active limits longest first and skips expired ones', () => {
    const limits = { all: 61_000, error: 30_500, span: 30_200, session: 10 };
    expect(formatRateLimits(limits, 100)).toBe('61::key, 31:error;span:key');
  });

  it('round-trips through updateRateLimits', () => {
    const header = formatRateLimits({ error: 5000, transaction: 9000 }, 0);
    expect(updateRateLimits({}, { rateLimitsHeader: header }, 0)).toEqual({
      error: 5000,
      transaction: 9000,
    });
  });

  it('returns undefined when nothing is limited', () => {
    expect(formatRateLimits({ error: 5 }, 10)).toBeUndefined();
  });
});
