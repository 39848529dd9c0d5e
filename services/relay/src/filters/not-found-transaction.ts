/**
 * Transactions for the not-found route: `/404` (and Next's `/_not-found`), with or without an
 * HTTP method. Streamed browser segments are named "Pageload"/"Navigation", so the URL path
 * is checked as well when the name came from the URL.
 */
import { enabledById, type Filter } from './filter.js';

const NOT_FOUND =
  /^(?:(?:GET|HEAD|POST|PUT|DELETE|CONNECT|OPTIONS|TRACE|PATCH) )?\/(?:404|_not-found)\/?$/;

/** Drops transactions for the not-found route. */
export const notFoundTransactionFilter: Filter = {
  id: 'not-found-transaction',
  appliesTo: 'transaction',
  isEnabled: enabledById('not-found-transaction'),
  matches: (item) => {
    if (item.transactionName !== undefined && NOT_FOUND.test(item.transactionName)) return true;
    const nameFromUrl = item.nameSource === undefined || item.nameSource === 'url';
    return nameFromUrl && item.urlPath !== undefined && NOT_FOUND.test(item.urlPath);
  },
};
