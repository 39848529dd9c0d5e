/**
 * Builders shared by the filter tests: an item view from a partial event, and a config with
 * chosen filters enabled. Test-only; not imported by production code.
 */
import {
  viewOfEvent,
  viewOfSegmentSpan,
  type FilterableItem,
} from '../envelope/filterable-item.js';
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

/** A config with every specification filter enabled. */
export const ALL_SPEC = configWith([
  'script-error',
  'resize-observer',
  'redirect-error',
  'incomplete-navigation',
  'not-found-transaction',
]);

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

/** A streamed segment span view with string attributes. */
export const segment = (
  attributes: Record<string, string>,
  name = 'Navigation',
  status = 'error',
) =>
  viewOfSegmentSpan({
    name,
    span_id: 'a'.repeat(16),
    is_segment: true,
    status,
    attributes: Object.fromEntries(
      Object.entries(attributes).map(([k, v]) => [k, { type: 'string', value: v }]),
    ),
  });
