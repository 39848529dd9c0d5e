/**
 * Incomplete navigation transactions. SDK 11 marks them by `sentry.idle_span_finish_reason`
 * (reference section 11): `idleTimeout` is a normal finish; `cancelled`, `documentHidden`,
 * `finalTimeout`, `heartbeatFailed` and an `externalFinish` caused by `document.hidden` are not.
 * Static transactions may instead carry status `cancelled`/`deadline_exceeded`; Next.js names
 * undetermined navigations `incomplete-app-router-transaction`.
 */
import { enabledById, type Filter } from './filter.js';

const INCOMPLETE_REASONS = new Set([
  'cancelled',
  'documentHidden',
  'finalTimeout',
  'heartbeatFailed',
]);
const INCOMPLETE_STATUSES = new Set(['cancelled', 'deadline_exceeded']);

/** Drops navigations that did not finish. */
export const incompleteNavigationFilter: Filter = {
  id: 'incomplete-navigation',
  appliesTo: 'transaction',
  isEnabled: enabledById('incomplete-navigation'),
  matches: (item) => {
    if (item.transactionName === 'incomplete-app-router-transaction') return true;
    if (item.op !== 'navigation') return false;
    if (item.finishReason !== undefined) {
      if (INCOMPLETE_REASONS.has(item.finishReason)) return true;
      return (
        item.finishReason === 'externalFinish' && item.cancellationReason === 'document.hidden'
      );
    }
    return item.status !== undefined && INCOMPLETE_STATUSES.has(item.status);
  },
};
