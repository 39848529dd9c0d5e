/** Relay's `releases` filter: the event's or segment's release against globs. */
import { anyGlobMatches } from './glob.js';
import type { Filter } from './filter.js';

/** Drops items from listed releases. */
export const releasesFilter: Filter = {
  id: 'release-version',
  appliesTo: 'any',
  isEnabled: (config) => config.enabled.has('release-version') && config.releases.length > 0,
  matches: (item, config) => anyGlobMatches(config.releases, item.release),
};
