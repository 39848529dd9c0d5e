import { describe, expect, it } from 'vitest';
import { redirectErrorFilter } from './redirect-error.js';
import { ALL_SPEC, errorWith } from './test-support.js';

describe('redirect-error', () => {
  it.each<[string | undefined, string | undefined]>([
    ['Error', 'NEXT_REDIRECT'],
    ['Error', 'NEXT_REDIRECT;replace;/login;307;'],
    ['Error', 'STRATA_REDIRECT'],
    ['STRATA_REDIRECT', '/login'],
  ])('drops %s: %s', (type, value) => {
    expect(redirectErrorFilter.matches(errorWith([[type, value]]), ALL_SPEC)).toBe(true);
  });

  it.each(['NEXT_REDIRECTED', 'Error: NEXT_REDIRECT', 'redirect failed'])('keeps %j', (value) => {
    expect(redirectErrorFilter.matches(errorWith([['Error', value]]), ALL_SPEC)).toBe(false);
  });
});
