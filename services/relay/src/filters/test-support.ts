/**
 * Builders shared by the filter tests: an item view from a partial event, and a config with
 * chosen filters enabled. Test-only; not imported by production code.
 */
import { viewOfEvent, type FilterableItem } from '../envelope/filterable-item.js';
import type { JsonObject } from '../envelope/envelope.js';
import type { FilterConfig, FilterId } from './filter.js';

/** A config with the given filters enabled and empty option lists unless overridden. */
export function configWith(
  ids: readonly FilterId[],
  overrides: Partial<FilterConfig> = {},
): FilterConfig {
  return {
    enabled: new Set(ids),
    redirectMarkers: ['STRATA_REDIRECT', 'NEXT_REDIRECT'],
    errorMessages: [],
    transactionNames: [],
    releases: [],
    clientIps: [],
    legacyBrowsers: ['default'],
    ...overrides,
  };
}

/** An error event view with one exception per `[type, value]` pair. */
export function errorWith(
  exceptions: ReadonlyArray<readonly [string | undefined, string | undefined]>,
  extra: JsonObject = {},
): FilterableItem {
  return viewOfEvent({
    exception: { values: exceptions.map(([type, value]) => ({ type, value })) },
    ...extra,
  });
}
