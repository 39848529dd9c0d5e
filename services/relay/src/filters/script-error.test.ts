import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { runFilters } from './filter.js';
import { FILTERS } from './registry.js';
import { scriptErrorFilter } from './script-error.js';
import { ALL_SPEC, configWith, errorWith } from './test-support.js';

describe('script-error', () => {
  it.each<[string | undefined, string]>([
    ['[undefined]', 'Script error.'],
    ['Error', 'Script error.'],
    [undefined, 'Script error'],
    ['Error', 'Javascript error: Script error. on line 0'],
    [undefined, 'Javascript error: Script error on line 0'],
  ])('drops %s: %s', (type, value) => {
    expect(scriptErrorFilter.matches(errorWith([[type, value]]), ALL_SPEC)).toBe(true);
  });

  it('drops by message too', () => {
    expect(scriptErrorFilter.matches(viewOfEvent({ message: 'Script error.' }), ALL_SPEC)).toBe(
      true,
    );
  });

  it.each(['Script error in checkout', 'Uncaught Script error.', 'script error.'])(
    'keeps near miss %j',
    (value) => {
      expect(scriptErrorFilter.matches(errorWith([['Error', value]]), ALL_SPEC)).toBe(false);
    },
  );

  it('is off when disabled', () => {
    expect(runFilters(FILTERS, errorWith([['Error', 'Script error.']]), configWith([]))).toBeNull();
  });
});
