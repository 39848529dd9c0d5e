import { describe, expect, it } from 'vitest';
import { earlyTraceHeaders, fetchWithTraceHeaders, randomSpanId } from './early-trace.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const SPAN_ID = 'b7ad6b7169203331';

describe('earlyTraceHeaders', () => {
  it('puts the document trace under the page span id, keeping a positive sampling decision', () => {
    const headers = earlyTraceHeaders(
      { traceId: TRACE_ID, sentryTrace: `${TRACE_ID}-00f067aa0ba902b7-1`, baggage: 'sentry-x=1' },
      SPAN_ID,
    );
    expect(headers).toEqual({
      'sentry-trace': `${TRACE_ID}-${SPAN_ID}-1`,
      traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`,
      baggage: 'sentry-x=1',
    });
  });

  it('keeps a negative decision, and leaves a deferred one deferred (unsampled for W3C)', () => {
    const negative = earlyTraceHeaders(
      { traceId: TRACE_ID, sentryTrace: `${TRACE_ID}-00f067aa0ba902b7-0` },
      SPAN_ID,
    );
    expect(negative).toEqual({
      'sentry-trace': `${TRACE_ID}-${SPAN_ID}-0`,
      traceparent: `00-${TRACE_ID}-${SPAN_ID}-00`,
    });
    const deferred = earlyTraceHeaders(
      { traceId: TRACE_ID, sentryTrace: `${TRACE_ID}-00f067aa0ba902b7` },
      SPAN_ID,
    );
    expect(deferred?.['sentry-trace']).toBe(`${TRACE_ID}-${SPAN_ID}`);
    expect(deferred?.traceparent).toBe(`00-${TRACE_ID}-${SPAN_ID}-00`);
  });

  it('gives nothing for a malformed document trace', () => {
    expect(earlyTraceHeaders({ traceId: 'x', sentryTrace: 'not-a-trace' }, SPAN_ID)).toBe(
      undefined,
    );
  });
});

describe('randomSpanId', () => {
  it('is 16 hex digits and never all zero', () => {
    let calls = 0;
    const id = randomSpanId((bytes) => void bytes.fill(calls++ === 0 ? 0 : 0xab));
    expect(id).toBe('ab'.repeat(8));
    expect(calls).toBe(2);
  });
});

describe('fetchWithTraceHeaders', () => {
  const trace = {
    'sentry-trace': `${TRACE_ID}-${SPAN_ID}-1`,
    traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`,
  } as const;

  function recording() {
    const seen: Headers[] = [];
    const fetchImpl = ((_input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return Promise.resolve(new Response(''));
    }) as typeof fetch;
    return { seen, fetchImpl };
  }

  it('adds the headers beside the caller’s, without replacing any the caller set', async () => {
    const { seen, fetchImpl } = recording();
    const traced = fetchWithTraceHeaders(fetchImpl, () => trace);
    await traced('/items', { headers: { 'strata-payload': '1', traceparent: 'mine' } });
    expect(seen[0]?.get('strata-payload')).toBe('1');
    expect(seen[0]?.get('sentry-trace')).toBe(trace['sentry-trace']);
    expect(seen[0]?.get('traceparent')).toBe('mine');
  });

  it('passes requests through untouched once there are no headers to add', async () => {
    const { seen, fetchImpl } = recording();
    let current: typeof trace | undefined = trace;
    const traced = fetchWithTraceHeaders(fetchImpl, () => current);
    current = undefined;
    await traced('/items', { headers: { 'strata-payload': '1' } });
    expect(seen[0]?.has('sentry-trace')).toBe(false);
    expect(seen[0]?.get('strata-payload')).toBe('1');
  });
});
