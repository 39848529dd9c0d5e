import { describe, expect, it } from 'vitest';
import { isRedirectControlFlow, NOISE_MESSAGES } from './noise.js';

const isNoise = (message: string) => NOISE_MESSAGES.some((pattern) => pattern.test(message));

describe('noise messages (the relay filters the same)', () => {
  it('matches cross-origin script errors and ResizeObserver notices', () => {
    for (const message of [
      'Script error.',
      'Script error',
      'Javascript error: Script error. on line 0',
      'ResizeObserver loop completed with undelivered notifications.',
      'ResizeObserver loop limit exceeded',
    ])
      expect({ message, noise: isNoise(message) }).toEqual({ message, noise: true });
  });

  it('keeps real errors that merely mention them', () => {
    for (const message of [
      'Error: Script error.',
      'Script error in checkout',
      'TypeError: ResizeObserver is not defined',
    ])
      expect({ message, noise: isNoise(message) }).toEqual({ message, noise: false });
  });
});

describe('isRedirectControlFlow', () => {
  const event = (type: string, value: string) => ({ exception: { values: [{ type, value }] } });

  it('recognises redirect markers as value, type or prefix', () => {
    expect(isRedirectControlFlow(event('Error', 'STRATA_REDIRECT'))).toBe(true);
    expect(isRedirectControlFlow(event('Error', 'STRATA_REDIRECT;/items'))).toBe(true);
    expect(isRedirectControlFlow(event('NEXT_REDIRECT', 'x'))).toBe(true);
  });

  it('leaves other errors and message-only events alone', () => {
    expect(isRedirectControlFlow(event('Error', 'STRATA_REDIRECTED'))).toBe(false);
    expect(isRedirectControlFlow(event('Error', 'failed: STRATA_REDIRECT'))).toBe(false);
    expect(isRedirectControlFlow({})).toBe(false);
  });
});
