/**
 * The filter contract (one filter per file, same shape, Relay's `should_filter`) and the
 * per-project options they read. Pure.
 */
import type { FilterableItem } from '../envelope/filterable-item.js';

/** Every filter id; each is also the drop reason suffix (`filtered:<id>`). Stable, kebab-case. */
export const FILTER_IDS = [
  'script-error',
  'resize-observer',
  'redirect-error',
  'incomplete-navigation',
  'not-found-transaction',
  'ip-address',
  'release-version',
  'error-message',
  'localhost',
  'browser-extensions',
  'legacy-browsers',
  'web-crawlers',
  'filtered-transaction',
] as const;

/** One filter's id. */
export type FilterId = (typeof FILTER_IDS)[number];

/** Filters the specification requires; on unless configured otherwise. */
export const DEFAULT_FILTERS: readonly FilterId[] = [
  'script-error',
  'resize-observer',
  'redirect-error',
  'incomplete-navigation',
  'not-found-transaction',
];

/** Options filters read (per project; the relay's config supplies the defaults). */
export interface FilterConfig {
  readonly enabled: ReadonlySet<FilterId>;
  /** Exception values/types that mark redirect control flow (exact, or followed by `;`). */
  readonly redirectMarkers: readonly string[];
  /** Relay globs over error messages. */
  readonly errorMessages: readonly string[];
  /** Relay globs over transaction names. */
  readonly transactionNames: readonly string[];
  /** Relay globs over releases. */
  readonly releases: readonly string[];
  /** IPs or CIDR ranges of clients whose envelopes are dropped. */
  readonly clientIps: readonly string[];
  /** Legacy-browser options: `default` or named ones such as `ie11`, `safari_pre_6`. */
  readonly legacyBrowsers: readonly string[];
}

/** A filter: enabled check plus a pure predicate over the narrow item view. */
export interface Filter {
  readonly id: FilterId;
  /** Which item kinds the filter looks at. */
  readonly appliesTo: 'error' | 'transaction' | 'any';
  isEnabled(config: FilterConfig): boolean;
  matches(item: FilterableItem, config: FilterConfig): boolean;
}

/** Runs filters in order; the first match wins and names the drop reason. */
export function runFilters(
  filters: readonly Filter[],
  item: FilterableItem,
  config: FilterConfig,
): FilterId | null {
  for (const filter of filters) {
    if (filter.appliesTo !== 'any' && filter.appliesTo !== item.kind) continue;
    if (filter.isEnabled(config) && filter.matches(item, config)) return filter.id;
  }
  return null;
}

/** Convenience for filters toggled only by the enabled set. */
export function enabledById(id: FilterId): (config: FilterConfig) => boolean {
  return (config) => config.enabled.has(id);
}
