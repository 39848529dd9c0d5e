import { describe, expect, it } from 'vitest';
import { newTraceId, traceIdOf } from './request-context.js';

describe('trace ids', () => {
  it('are 32 lowercase hex digits, different every time', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newTraceId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[\da-f]{32}$/);
  });

  it('continue an incoming traceparent or sentry-trace, and start anew otherwise', () => {
    expect(
      traceIdOf({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }),
    ).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(
      traceIdOf({ 'sentry-trace': '0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-1' }),
    ).toBe('0af7651916cd43dd8448eb211c80319c');
    const zero = `00-${'0'.repeat(32)}-b7ad6b7169203331-01`;
    expect(traceIdOf({ traceparent: zero })).toMatch(/^(?!0+$)[\da-f]{32}$/);
    expect(traceIdOf({})).toMatch(/^[\da-f]{32}$/);
  });

  it('follow the telemetry side: sentry-trace first, traceparent version 00 only, no repeats', () => {
    const w3c = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const sentry = '4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1';
    expect(traceIdOf({ traceparent: w3c, 'sentry-trace': sentry })).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    // An invalid sentry-trace does not hide a valid traceparent.
    expect(traceIdOf({ traceparent: w3c, 'sentry-trace': 'nonsense' })).toBe(
      '0af7651916cd43dd8448eb211c80319c',
    );
    // None of these continues a trace: the id is new, not one the headers carry.
    const sent = ['0af7651916cd43dd8448eb211c80319c', '4bf92f3577b34da6a3ce929d0e0e4736'];
    const fresh = (headers: Record<string, string | string[]>) => {
      const id = traceIdOf(headers);
      expect(id).toMatch(/^[\da-f]{32}$/);
      expect(sent).not.toContain(id);
    };
    fresh({ traceparent: w3c.replace(/^00/, '01') });
    fresh({ traceparent: w3c.replace(/-b7ad6b7169203331-/, `-${'0'.repeat(16)}-`) });
    fresh({ traceparent: [w3c, w3c] });
    fresh({ 'sentry-trace': [sentry, sentry] });
  });
});
