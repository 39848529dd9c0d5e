/**
 * The ordered filter list. Filters are additive, so order only decides which reason a drop is
 * recorded under: the specification's noise filters first (cheapest, most frequent), then
 * Relay's inbound filters in Relay's own order (`relay-filter/src/lib.rs`). Keep it that way.
 */
import { browserExtensionsFilter } from './browser-extensions.js';
import { clientIpsFilter } from './client-ips.js';
import { errorMessagesFilter } from './error-messages.js';
import type { Filter } from './filter.js';
import { incompleteNavigationFilter } from './incomplete-navigation.js';
import { legacyBrowsersFilter } from './legacy-browsers.js';
import { localhostFilter } from './localhost.js';
import { notFoundTransactionFilter } from './not-found-transaction.js';
import { redirectErrorFilter } from './redirect-error.js';
import { releasesFilter } from './releases.js';
import { resizeObserverFilter } from './resize-observer.js';
import { scriptErrorFilter } from './script-error.js';
import { transactionNamesFilter } from './transaction-names.js';
import { webCrawlersFilter } from './web-crawlers.js';

/** Every filter, in the order they run. */
export const FILTERS: readonly Filter[] = [
  scriptErrorFilter,
  resizeObserverFilter,
  redirectErrorFilter,
  incompleteNavigationFilter,
  notFoundTransactionFilter,
  clientIpsFilter,
  releasesFilter,
  errorMessagesFilter,
  localhostFilter,
  browserExtensionsFilter,
  legacyBrowsersFilter,
  webCrawlersFilter,
  transactionNamesFilter,
];
