/**
 * Per-item size budgets as Sentry ingest applies them (Relay `utils/sizes.rs`, develop docs
 * "Size Limits"): an envelope that breaks one is refused whole with 413, naming the item.
 */
import type { Envelope } from '../envelope/envelope.js';
import { itemQuantity } from '../envelope/item-category.js';

const MIB = 1024 * 1024;

/** Byte and count budgets. */
export interface ItemBudgets {
  readonly maxEventBytes: number;
  readonly maxAttachmentsBytes: number;
  readonly maxClientReportBytes: number;
  readonly maxCheckInBytes: number;
  readonly maxProfileBytes: number;
  readonly maxReplayBytes: number;
  /** Average bytes per contained item for container items (spans, logs, metrics). */
  readonly maxContainedItemBytes: number;
  readonly maxSessions: number;
}

/** Sentry ingest's published defaults. */
export const INGEST_BUDGETS: ItemBudgets = {
  maxEventBytes: 1 * MIB,
  maxAttachmentsBytes: 100 * MIB,
  maxClientReportBytes: 4 * 1024,
  maxCheckInBytes: 100 * 1024,
  maxProfileBytes: 50 * MIB,
  maxReplayBytes: 10 * MIB,
  maxContainedItemBytes: 1 * MIB,
  maxSessions: 100,
};

const EVENT_LIKE = new Set([
  'event',
  'transaction',
  'security',
  'raw_security',
  'replay_event',
  'feedback',
  'form_data',
  'user_report',
]);
const CONTAINERS = new Set(['span', 'log', 'trace_metric', 'metric']);

/** Returns a description of the first budget the envelope breaks, or null. */
export function checkItemBudgets(envelope: Envelope, budgets: ItemBudgets): string | null {
  let attachments = 0;
  let sessions = 0;
  for (const [index, item] of envelope.items.entries()) {
    const size = item.payload.length;
    const over = (limit: number) =>
      `item ${index} (${item.type}) is ${size} bytes, over the ${limit}-byte limit`;
    if (EVENT_LIKE.has(item.type) && size > budgets.maxEventBytes)
      return over(budgets.maxEventBytes);
    if (item.type === 'client_report' && size > budgets.maxClientReportBytes) {
      return over(budgets.maxClientReportBytes);
    }
    if (item.type === 'check_in' && size > budgets.maxCheckInBytes)
      return over(budgets.maxCheckInBytes);
    if (
      (item.type === 'profile' || item.type === 'profile_chunk') &&
      size > budgets.maxProfileBytes
    ) {
      return over(budgets.maxProfileBytes);
    }
    if (item.type === 'replay_recording' && size > budgets.maxReplayBytes) {
      return over(budgets.maxReplayBytes);
    }
    if (
      CONTAINERS.has(item.type) &&
      size / itemQuantity(item.header) > budgets.maxContainedItemBytes
    ) {
      return `item ${index} (${item.type}) averages over ${budgets.maxContainedItemBytes} bytes per entry`;
    }
    if (item.type === 'attachment') attachments += size;
    if (item.type === 'session') sessions += 1;
  }
  if (attachments > budgets.maxAttachmentsBytes) {
    return `attachments total ${attachments} bytes, over the ${budgets.maxAttachmentsBytes}-byte limit`;
  }
  if (sessions > budgets.maxSessions)
    return `${sessions} sessions, over the limit of ${budgets.maxSessions}`;
  return null;
}
