/** The single place drops are recorded: counted in metrics and aggregated for client reports. */
import type { ClientReportAggregator } from './client-reports.js';
import type { DropReason } from './drop-reason.js';

/** Records one dropped quantity for a DSN. */
export interface OutcomeSink {
  record(dsnKey: string, reason: DropReason, category: string, quantity: number): void;
}

/** Fans a drop out to the client-report aggregator and a counter. */
export function createOutcomeSink(
  aggregator: ClientReportAggregator,
  count: (reason: DropReason, category: string, quantity: number) => void,
): OutcomeSink {
  return {
    record(dsnKey, reason, category, quantity) {
      count(reason, category, quantity);
      aggregator.record(dsnKey, reason, category, quantity);
    },
  };
}
