// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { globMatches } from './glob.js';

describe('glob (Relay glob3 rules)', () => {
  it.each([
    ['foo*', 'foobarblub', true],
    ['*blub', 'foobarblub', true],
    ['*bar*', 'foobarblub', true],
    ['*foo*', 'foo\n', true],
    ['foo*bar', 'foo\nbar', true],
    ['1.18.[0-4].*', '1.18.4.2153-2aa83397b', true],
    ['1.18.[0-4].*', '1.18.5.2153-2aa83397b', false],
    ['1.18.[!0-4].*', '1.18.5.2153-2aa83397b', true],
    ['1.18.[!0-4].*', '1.18.4.2153-2aa83397b', false],
    ['!1.18.4.*', '1.18.4.2153', false],
    [
      '/api/0/organizations/\\{organization_slug\\}/event*',
      '/api/0/organizations/{organization_slug}/event/foobar',
      true,
    ],
    ['FOO*', 'foobar', true],
    ['', 'anything', false],
    ['*', '', false],
    ['{a,b}c', 'bc', true],
  ])('%j vs %j → %s', (pattern, input, expected) => {
    expect(globMatches(pattern, input)).toBe(expected);
  });
});
