import { describe, expect, it } from 'vitest';
import { sentryTraceToAdd } from './w3c-traceparent.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

describe('sentryTraceToAdd', () => {
  it('turns a lone valid traceparent into sentry-trace, sampled as its flags say', () => {
    expect(sentryTraceToAdd({ traceparent: `00-${TRACE}-${SPAN}-01` })).toBe(`${TRACE}-${SPAN}-1`);
    expect(sentryTraceToAdd({ traceparent: `00-${TRACE}-${SPAN}-00` })).toBe(`${TRACE}-${SPAN}-0`);
  });

  it('leaves a request that has its own sentry-trace alone: Sentry’s header wins', () => {
    expect(
      sentryTraceToAdd({
        traceparent: `00-${'1'.repeat(32)}-${SPAN}-01`,
        'sentry-trace': `${TRACE}-${SPAN}-1`,
      }),
    ).toBeUndefined();
  });

  it.each([
    `ff-${TRACE}-${SPAN}-01`,
    `01-${TRACE}-${SPAN}-01`,
    `00-${'0'.repeat(32)}-${SPAN}-01`,
    `00-${TRACE}-${'0'.repeat(16)}-01`,
    `00-${TRACE}0-${SPAN}-01`,
    `00-${TRACE}-${SPAN.slice(1)}-01`,
    `00-${TRACE}-${SPAN}-1`,
    `00-${TRACE.toUpperCase()}-${SPAN}-01`,
    `00-${TRACE}-${SPAN}-01, 00-${TRACE}-${SPAN}-01`,
    [`00-${TRACE}-${SPAN}-01`],
    '',
    undefined,
  ])('ignores the invalid traceparent %j', (traceparent) => {
    expect(sentryTraceToAdd({ traceparent })).toBeUndefined();
  });
});
