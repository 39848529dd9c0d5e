// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { releasesFilter } from './releases.js';
import { configWith } from './test-support.js';

describe('release-version', () => {
  it.each<[string[], boolean]>([
    [['1.3.0', '1.2.3', '1.3.1'], true],
    [['1.3.0', '1.2.*', '1.3.1'], true],
    [['1.3.0', '1.3.*', '1.*'], true],
    [['*', '1.3.0', '1.3.*'], true],
    [['1.3.0', '1.2.4', '1.3.1'], false],
    [['1.4.0', '1.3.*', '3.*'], false],
    [[], false],
    [['1.1.1', '1.1.2', '1.3.1'], false],
  ])('release 1.2.3 vs %j → %s', (releases, dropped) => {
    const config = configWith(['release-version'], { releases });
    const matched =
      releasesFilter.isEnabled(config) &&
      releasesFilter.matches(viewOfEvent({ release: '1.2.3' }), config);
    expect(matched).toBe(dropped);
  });
});
