import { describe, expect, it } from 'vitest';
import { viewOfEvent, viewOfSegmentSpan } from '../envelope/filterable-item.js';
import { runFilters } from './filter.js';
import { incompleteNavigationFilter } from './incomplete-navigation.js';
import { notFoundTransactionFilter } from './not-found-transaction.js';
import { redirectErrorFilter } from './redirect-error.js';
import { FILTERS } from './registry.js';
import { resizeObserverFilter } from './resize-observer.js';
import { scriptErrorFilter } from './script-error.js';
import { configWith, errorWith } from './test-support.js';

const ALL_SPEC = configWith([
  'script-error',
  'resize-observer',
  'redirect-error',
  'incomplete-navigation',
  'not-found-transaction',
]);

describe('script-error', () => {
  it.each<[string | undefined, string]>([
    ['[undefined]', 'Script error.'],
    ['Error', 'Script error.'],
    [undefined, 'Script error'],
    ['Error', 'Javascript error: Script error. on line 0'],
    [undefined, 'Javascript error: Script error on line 0'],
  ])('drops %s: %s', (type, value) => {
    expect(scriptErrorFilter.matches(errorWith([[type, value]]), ALL_SPEC)).toBe(true);
  });

  it('drops by message too', () => {
    expect(scriptErrorFilter.matches(viewOfEvent({ message: 'Script error.' }), ALL_SPEC)).toBe(
      true,
    );
  });

  it.each(['Script error in checkout', 'Uncaught Script error.', 'script error.'])(
    'keeps near miss %j',
    (value) => {
      expect(scriptErrorFilter.matches(errorWith([['Error', value]]), ALL_SPEC)).toBe(false);
    },
  );

  it('is off when disabled', () => {
    expect(runFilters(FILTERS, errorWith([['Error', 'Script error.']]), configWith([]))).toBeNull();
  });
});

describe('resize-observer', () => {
  it.each([
    'ResizeObserver loop limit exceeded',
    'ResizeObserver loop completed with undelivered notifications.',
    'RESIZEOBSERVER LOOP LIMIT EXCEEDED',
  ])('drops %j', (value) => {
    expect(resizeObserverFilter.matches(errorWith([['Error', value]]), ALL_SPEC)).toBe(true);
  });

  it.each(['ResizeObserver is not defined', 'my ResizeObserver loop limit exceeded twice'])(
    'keeps %j',
    (value) => {
      expect(resizeObserverFilter.matches(errorWith([['Error', value]]), ALL_SPEC)).toBe(false);
    },
  );
});

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

const segment = (attributes: Record<string, string>, name = 'Navigation', status = 'error') =>
  viewOfSegmentSpan({
    name,
    span_id: 'a'.repeat(16),
    is_segment: true,
    status,
    attributes: Object.fromEntries(
      Object.entries(attributes).map(([k, v]) => [k, { type: 'string', value: v }]),
    ),
  });

describe('incomplete-navigation', () => {
  it.each([
    ['cancelled', undefined],
    ['documentHidden', undefined],
    ['finalTimeout', undefined],
    ['externalFinish', 'document.hidden'],
  ])('drops a streamed navigation finished by %s', (reason, cancellation) => {
    const attributes: Record<string, string> = {
      'sentry.op': 'navigation',
      'sentry.idle_span_finish_reason': reason,
    };
    if (cancellation) attributes['sentry.cancellation_reason'] = cancellation;
    expect(incompleteNavigationFilter.matches(segment(attributes), ALL_SPEC)).toBe(true);
  });

  it.each([
    ['navigation', 'idleTimeout'],
    ['navigation', 'externalFinish'],
    ['pageload', 'cancelled'],
  ])('keeps %s finished by %s', (op, reason) => {
    const item = segment({ 'sentry.op': op, 'sentry.idle_span_finish_reason': reason });
    expect(incompleteNavigationFilter.matches(item, ALL_SPEC)).toBe(false);
  });

  it.each([
    ['cancelled', true],
    ['deadline_exceeded', true],
    ['ok', false],
  ])('static transaction with status %s → drop %s', (status, dropped) => {
    const item = viewOfEvent({
      type: 'transaction',
      transaction: '/catalogue',
      contexts: { trace: { op: 'navigation', status } },
    });
    expect(incompleteNavigationFilter.matches(item, ALL_SPEC)).toBe(dropped);
  });

  it('drops incomplete-app-router-transaction', () => {
    const item = viewOfEvent({
      type: 'transaction',
      transaction: 'incomplete-app-router-transaction',
    });
    expect(incompleteNavigationFilter.matches(item, ALL_SPEC)).toBe(true);
  });
});

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
