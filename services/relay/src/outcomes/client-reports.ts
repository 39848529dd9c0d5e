/**
 * Aggregates what the relay dropped, per DSN, into `client_report` payloads (develop docs
 * "Client Reports"; relays may also fill `filtered_events` and `rate_limited_events`). Drops of
 * client reports themselves (category `internal`) are never reported, to avoid feedback loops.
 * Payloads are split so each stays under the 4 KiB client-report item budget, and encoded as an
 * envelope of `client_report` items for the spool. Pure value holder and encoder.
 */
import { createEnvelope, createItem, serializeEnvelope } from '../envelope/serialize-envelope.js';
import { toReportedOutcome, type DropReason } from './drop-reason.js';

/** One aggregated outcome line. */
export interface OutcomeLine {
  readonly reason: string;
  readonly category: string;
  readonly quantity: number;
}

/** A client-report payload. */
export interface ClientReportPayload {
  readonly timestamp: number;
  readonly discarded_events?: OutcomeLine[];
  readonly filtered_events?: OutcomeLine[];
  readonly rate_limited_events?: OutcomeLine[];
}

/** Aggregator of outcomes per DSN key. */
export interface ClientReportAggregator {
  record(dsnKey: string, reason: DropReason, category: string, quantity: number): void;
  /** Takes everything aggregated so far as payloads per DSN key, and resets. */
  drain(nowSeconds: number): Map<string, ClientReportPayload[]>;
}

const MAX_LINES_PER_REPORT = 40; // ~80 bytes a line keeps a payload well under 4 KiB
const encoder = new TextEncoder();

/** Creates an empty aggregator. */
export function createClientReportAggregator(): ClientReportAggregator {
  let pending = new Map<string, Map<string, number>>();
  return {
    record(dsnKey, reason, category, quantity) {
      if (category === 'internal' || quantity <= 0) return;
      const forDsn = pending.get(dsnKey) ?? new Map<string, number>();
      const key = `${reason}\u0000${category}`;
      forDsn.set(key, (forDsn.get(key) ?? 0) + quantity);
      pending.set(dsnKey, forDsn);
    },
    drain(nowSeconds) {
      const out = new Map<string, ClientReportPayload[]>();
      for (const [dsnKey, counts] of pending) {
        const lines = [...counts.entries()].map(([key, quantity]) => {
          const [reason, category] = key.split('\u0000') as [DropReason, string];
          return { outcome: toReportedOutcome(reason), category, quantity };
        });
        const payloads: ClientReportPayload[] = [];
        for (let i = 0; i < lines.length; i += MAX_LINES_PER_REPORT) {
          const payload: Record<string, unknown> = { timestamp: nowSeconds };
          for (const line of lines.slice(i, i + MAX_LINES_PER_REPORT)) {
            const list = (payload[line.outcome.list] ?? []) as OutcomeLine[];
            list.push({
              reason: line.outcome.reason,
              category: line.category,
              quantity: line.quantity,
            });
            payload[line.outcome.list] = list;
          }
          payloads.push(payload as unknown as ClientReportPayload);
        }
        out.set(dsnKey, payloads);
      }
      pending = new Map();
      return out;
    },
  };
}

/** The envelope that carries one DSN's payloads (`dsn` is its public form), sent at `nowMs`. */
export function clientReportEnvelope(
  dsn: string,
  payloads: readonly ClientReportPayload[],
  nowMs: number,
): Uint8Array {
  const items = payloads.map((payload) =>
    createItem({ type: 'client_report' }, encoder.encode(JSON.stringify(payload))),
  );
  return serializeEnvelope(createEnvelope({ dsn, sent_at: new Date(nowMs).toISOString() }, items));
}
