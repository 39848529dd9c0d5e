import { describe, expect, it } from 'vitest';
import { applyEventLimits, SPEC_EVENT_LIMITS } from './event-limits.js';
import { scrubEvent, scrubText, truncateIp } from './scrub-pii.js';

describe('applyEventLimits (specification caps)', () => {
  it('cuts message and exception values to 250 characters with the SDK marker', () => {
    const event = {
      message: 'm'.repeat(1000),
      exception: { values: [{ type: 'Error', value: 'v'.repeat(251) }] },
    };
    const changes = applyEventLimits(event, SPEC_EVENT_LIMITS);
    expect(event.message).toBe(`${'m'.repeat(250)}...`);
    expect(event.exception.values[0]?.value).toBe(`${'v'.repeat(250)}...`);
    expect(changes).toEqual(['message truncated', 'exception 0 value truncated']);
  });

  it('leaves a 250-character value alone and reports no change', () => {
    const event = { message: 'x'.repeat(250) };
    expect(applyEventLimits(event, SPEC_EVENT_LIMITS)).toEqual([]);
  });

  it('keeps the newest 100 breadcrumbs', () => {
    const breadcrumbs = Array.from({ length: 150 }, (_, i) => ({ message: `crumb ${i}` }));
    const event = { breadcrumbs: { values: breadcrumbs } };
    applyEventLimits(event, SPEC_EVENT_LIMITS);
    expect(event.breadcrumbs.values).toHaveLength(100);
    expect(event.breadcrumbs.values[0]?.message).toBe('crumb 50');
    expect(event.breadcrumbs.values[99]?.message).toBe('crumb 149');
  });

  it('keeps the innermost 50 frames (the crash site is last)', () => {
    const frames = Array.from({ length: 80 }, (_, i) => ({ function: `f${i}` }));
    const event = { exception: { values: [{ value: 'boom', stacktrace: { frames } }] } };
    applyEventLimits(event, SPEC_EVENT_LIMITS);
    const kept = event.exception.values[0]?.stacktrace.frames ?? [];
    expect(kept).toHaveLength(50);
    expect(kept[0]?.function).toBe('f30');
    expect(kept[49]?.function).toBe('f79');
  });

  it('caps a baggage header at 8192 characters by skipping whole entries', () => {
    const baggage = Array.from({ length: 765 }, (_, i) => `foo${i}=${i}`).join(',');
    const event = { request: { headers: { baggage } } };
    applyEventLimits(event, SPEC_EVENT_LIMITS);
    expect(event.request.headers.baggage.length).toBeLessThanOrEqual(8192);
    expect(event.request.headers.baggage).not.toContain('foo764=');
    expect(
      event.request.headers.baggage.split(',').every((entry) => /^foo\d+=\d+$/.test(entry)),
    ).toBe(true);
  });
});

describe('scrubEvent (optional PII scrubbing)', () => {
  it('removes cookies and auth headers, truncates IPs, masks tokens', () => {
    const event = {
      request: {
        url: 'https://x.example/cb?token=abc&page=2',
        cookies: { sid: '1' },
        headers: { Cookie: 'sid=1', Authorization: 'Bearer abcdefghijkl', Accept: '*/*' },
      },
      user: { ip_address: '203.0.113.77' },
      message: 'login failed for Bearer abcdefghijklmnop',
      exception: { values: [{ value: 'key sk_live_ABCDEFGH12345678 rejected' }] },
    };
    scrubEvent(event);
    expect(event.request).toEqual({
      url: 'https://x.example/cb?token=[Filtered]&page=2',
      headers: { Accept: '*/*' },
    });
    expect(event.user.ip_address).toBe('203.0.113.0');
    expect(event.message).toBe('login failed for Bearer [Filtered]');
    expect(event.exception.values[0]?.value).toBe('key [Filtered] rejected');
  });

  it.each([
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', '[Filtered]'],
    ['postgres://app:hunter2@db/prod', 'postgres://app:[Filtered]@db/prod'],
    ['nothing secret here', 'nothing secret here'],
  ])('scrubText(%j) = %j', (input, output) => {
    expect(scrubText(input)).toBe(output);
  });

  it('truncates IPv6 addresses', () => {
    expect(truncateIp('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::');
  });
});
