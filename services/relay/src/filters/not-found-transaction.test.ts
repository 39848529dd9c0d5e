import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { runFilters } from './filter.js';
import { notFoundTransactionFilter } from './not-found-transaction.js';
import { FILTERS } from './registry.js';
import { ALL_SPEC, segment } from './test-support.js';

describe('not-found-transaction', () => {
  it.each(['/404', 'GET /404', 'HEAD /404', '/_not-found', 'POST /_not-found'])(
    'drops static transaction %j',
    (name) => {
      const item = viewOfEvent({ type: 'transaction', transaction: name });
      expect(notFoundTransactionFilter.matches(item, ALL_SPEC)).toBe(true);
    },
  );

  it.each(['/4040', '/404/items', 'GET /catalogue', 'FETCH /404', '/items/404x'])(
    'keeps %j',
    (name) => {
      const item = viewOfEvent({ type: 'transaction', transaction: name });
      expect(notFoundTransactionFilter.matches(item, ALL_SPEC)).toBe(false);
    },
  );

  it('drops a streamed segment named from the URL /404', () => {
    const item = segment({
      'sentry.op': 'navigation',
      'sentry.segment.name.source': 'url',
      'url.path': '/404',
    });
    expect(notFoundTransactionFilter.matches(item, ALL_SPEC)).toBe(true);
  });

  it('keeps a route-named segment even if its URL is /404', () => {
    const item = segment(
      { 'sentry.segment.name.source': 'route', 'url.path': '/404' },
      '/items/:id',
    );
    expect(notFoundTransactionFilter.matches(item, ALL_SPEC)).toBe(false);
  });

  it('does not look at errors', () => {
    expect(
      runFilters(FILTERS, viewOfEvent({ transaction: '/404', message: 'x' }), ALL_SPEC),
    ).toBeNull();
  });
});
