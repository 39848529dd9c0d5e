import { describe, expect, it } from 'vitest';
import { admit, backoffDelay, CLOSED, recordFailure, recordSuccess } from './circuit-breaker.js';

const LIMITS = { failureThreshold: 3, openMs: 1000 };

describe('circuit breaker', () => {
  it('opens after the threshold of consecutive failures, then refuses until openMs passed', () => {
    let state = CLOSED;
    state = recordFailure(state, 0, LIMITS);
    state = recordFailure(state, 0, LIMITS);
    expect(state).toEqual({ kind: 'closed', failures: 2 });
    expect(recordSuccess()).toEqual(CLOSED); // a success in between resets the count
    state = recordFailure(state, 100, LIMITS);
    expect(state).toEqual({ kind: 'open', until: 1100 });
    expect(admit(state, 1099, LIMITS)).toEqual({ allowed: false, state });
  });

  it('half-open lets one probe through; its success closes, its failure reopens', () => {
    const open = { kind: 'open', until: 1000 } as const;
    const probe = admit(open, 1000, LIMITS);
    expect(probe).toEqual({ allowed: true, state: { kind: 'half-open', probeSince: 1000 } });
    expect(admit(probe.state, 1200, LIMITS).allowed).toBe(false); // one probe at a time
    expect(recordFailure(probe.state, 1300, LIMITS)).toEqual({ kind: 'open', until: 2300 });
    expect(recordSuccess()).toEqual(CLOSED);
    // A probe that never reports back frees its slot after openMs.
    expect(admit(probe.state, 2000, LIMITS).allowed).toBe(true);
  });

  it('backs off with full jitter under a cap', () => {
    const limits = { baseMs: 100, capMs: 5000 };
    expect(backoffDelay(0, () => 0.999, limits)).toBe(99);
    expect(backoffDelay(3, () => 0.5, limits)).toBe(400);
    expect(backoffDelay(30, () => 0.999, limits)).toBe(4995);
    expect(backoffDelay(30, () => 0, limits)).toBe(0);
  });
});
