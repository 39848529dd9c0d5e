import { describe, expect, it } from 'vitest';
import { tracestateToForward } from './w3c-tracestate.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = `00-${TRACE}-00f067aa0ba902b7-01`;

describe('tracestateToForward', () => {
  it('passes on the caller’s entries for a trace continued from its traceparent', () => {
    expect(
      tracestateToForward(
        { traceparent, tracestate: 'congo=t61rcWkgMzE, rojo=00f067aa0ba902b7' },
        TRACE,
      ),
    ).toBe('congo=t61rcWkgMzE,rojo=00f067aa0ba902b7');
    expect(tracestateToForward({ traceparent, tracestate: 'tenant@vendor=x' }, TRACE)).toBe(
      'tenant@vendor=x',
    );
  });

  it('passes nothing on for another trace, or without a valid traceparent', () => {
    expect(tracestateToForward({ traceparent, tracestate: 'a=1' }, 'f'.repeat(32))).toBeUndefined();
    expect(tracestateToForward({ tracestate: 'a=1' }, TRACE)).toBeUndefined();
    expect(
      tracestateToForward(
        { traceparent: `ff-${TRACE}-00f067aa0ba902b7-01`, tracestate: 'a=1' },
        TRACE,
      ),
    ).toBeUndefined();
  });

  it.each([
    ['too long', Array.from({ length: 20 }, (_, n) => `k${n}=${'v'.repeat(28)}`).join(',')],
    ['too many members', Array.from({ length: 33 }, (_, n) => `k${n}=v`).join(',')],
    ['not key=value', 'just-text'],
    ['an upper-case key', 'Congo=1'],
    ['a control character', 'a=1\u0001'],
    ['empty', ' , '],
  ])('passes nothing on when the header is %s', (_case, tracestate) => {
    expect(tracestateToForward({ traceparent, tracestate }, TRACE)).toBeUndefined();
  });

  it('passes nothing on for a repeated header', () => {
    expect(tracestateToForward({ traceparent, tracestate: ['a=1', 'b=2'] }, TRACE)).toBeUndefined();
  });
});
