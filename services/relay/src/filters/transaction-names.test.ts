// Conformance tables from the reference, section 6.2 (Relay's relay-filter tests).
import { describe, expect, it } from 'vitest';
import { viewOfEvent } from '../envelope/filterable-item.js';
import { configWith } from './test-support.js';
import { transactionNamesFilter } from './transaction-names.js';

describe('filtered-transaction', () => {
  const health = configWith(['filtered-transaction'], {
    transactionNames: ['*healthcheck*', '*/health'],
  });
  it.each([
    ['a/b/healthcheck/c', true],
    ['a_HEALTHCHECK_b', true],
    ['healthcheck', true],
    ['/health', true],
    ['a/HEALTH', true],
    ['bad', false],
    ['/bad', false],
    ['a/b/c', false],
    ['health', false],
    ['healthz', false],
    ['/health/', false],
    ['/healthz/', false],
    ['/healthx', false],
    ['/healthzx', false],
  ])('transaction %j → %s', (name, dropped) => {
    expect(
      transactionNamesFilter.matches(
        viewOfEvent({ type: 'transaction', transaction: name }),
        health,
      ),
    ).toBe(dropped);
  });
});
