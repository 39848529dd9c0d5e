import { describe, expect, it } from 'vitest';
import { resizeObserverFilter } from './resize-observer.js';
import { ALL_SPEC, errorWith } from './test-support.js';

describe('resize-observer', () => {
  it.each([
    'ResizeObserver loop limit exceeded',
    'ResizeObserver loop completed with undelivered notifications.',
    'RESIZEOBSERVER LOOP LIMIT EXCEEDED',
  ])('drops %j', (value) => {
    expect(resizeObserverFilter.matches(errorWith([['Error', value]]), ALL_SPEC)).toBe(true);
  });

  it.each(['ResizeObserver is not defined', 'my ResizeObserver loop limit exceeded twice'])(
    'keeps %j',
    (value) => {
      expect(resizeObserverFilter.matches(errorWith([['Error', value]]), ALL_SPEC)).toBe(false);
    },
  );
});
