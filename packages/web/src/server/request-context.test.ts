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
});
