import { describe, expect, it } from 'vitest';
import { unsentReason } from './unsent-transactions.js';

const navigation = (data: Record<string, unknown>, transaction = '/items/:id') => ({
  transaction,
  contexts: { trace: { op: 'navigation', data } },
});

describe('unsentReason', () => {
  it('sends a committed navigation and a complete page load', () => {
    expect(unsentReason(navigation({ 'strata.navigation.outcome': 'committed' }))).toBeUndefined();
    expect(
      unsentReason({
        transaction: '/items',
        contexts: {
          trace: { op: 'pageload', data: { 'sentry.idle_span_finish_reason': 'cancelled' } },
        },
      }),
    ).toBeUndefined();
  });

  it('drops navigations that were overtaken or became full page loads', () => {
    expect(unsentReason(navigation({ 'strata.navigation.outcome': 'overtaken' }))).toBe(
      'overtaken',
    );
    expect(unsentReason(navigation({ 'strata.navigation.outcome': 'full-load' }))).toBe(
      'full-load',
    );
  });

  it('drops navigations the SDK cut short, like the relay does', () => {
    for (const reason of ['cancelled', 'documentHidden', 'finalTimeout', 'heartbeatFailed'])
      expect(unsentReason(navigation({ 'sentry.idle_span_finish_reason': reason }))).toBe(
        'incomplete',
      );
    expect(
      unsentReason(navigation({ 'sentry.idle_span_finish_reason': 'externalFinish' })),
    ).toBeUndefined();
  });

  it('drops anything named /404, page load or navigation', () => {
    expect(unsentReason(navigation({}, '/404'))).toBe('not-found');
    expect(unsentReason({ transaction: '/404', contexts: { trace: { op: 'pageload' } } })).toBe(
      'not-found',
    );
    expect(unsentReason(navigation({}, '/404/help'))).toBeUndefined();
  });
});
