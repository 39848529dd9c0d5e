import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { incompleteNavigationFilter } from './incomplete-navigation.js';
import { ALL_SPEC, segment } from './test-support.js';

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
