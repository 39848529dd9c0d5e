/**
 * The closed list of reasons the relay drops data for (kebab-case, stable: dashboards and
 * client reports depend on them), and how each maps onto a Sentry client-report outcome.
 */
import { FILTER_IDS, type FilterId } from '../filters/filter.js';

/** Why an item was dropped after the relay accepted its envelope. */
export type DropReason =
  | `filtered:${FilterId}`
  | 'rate-limited'
  | 'invalid-item'
  | 'queue-overflow'
  | 'spool-expired'
  | 'upstream-rejected'
  | 'upstream-unreachable';

/** Every drop reason (for docs, metrics pre-registration and tests). */
export const DROP_REASONS: readonly DropReason[] = [
  ...FILTER_IDS.map((id) => `filtered:${id}` as const),
  'rate-limited',
  'invalid-item',
  'queue-overflow',
  'spool-expired',
  'upstream-rejected',
  'upstream-unreachable',
];

/** Which client-report list an outcome belongs in, and the reason it is reported under. */
export interface ReportedOutcome {
  readonly list: 'filtered_events' | 'rate_limited_events' | 'discarded_events';
  readonly reason: string;
}

/** Maps a drop reason to its client-report form (Relay's `FilterStatKey` names for filters). */
export function toReportedOutcome(reason: DropReason): ReportedOutcome {
  if (reason.startsWith('filtered:')) {
    return { list: 'filtered_events', reason: reason.slice('filtered:'.length) };
  }
  switch (reason) {
    case 'rate-limited':
      return { list: 'rate_limited_events', reason: 'ratelimit_backoff' };
    case 'queue-overflow':
    case 'spool-expired':
      return { list: 'discarded_events', reason: 'queue_overflow' };
    case 'upstream-unreachable':
      return { list: 'discarded_events', reason: 'network_error' };
    case 'upstream-rejected':
      return { list: 'discarded_events', reason: 'send_error' };
    default:
      return { list: 'discarded_events', reason: 'invalid' };
  }
}
