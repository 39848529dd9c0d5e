/** Relay's `ignore_transactions` filter: transaction (segment) names against globs. */
import { anyGlobMatches } from './glob.js';
import type { Filter } from './filter.js';

/** Drops transactions whose name matches a configured glob. */
export const transactionNamesFilter: Filter = {
  id: 'filtered-transaction',
  appliesTo: 'transaction',
  isEnabled: (config) =>
    config.enabled.has('filtered-transaction') && config.transactionNames.length > 0,
  matches: (item, config) => anyGlobMatches(config.transactionNames, item.transactionName),
};
