/**
 * Per-item size budgets in the spirit of Sentry ingest's (Relay `utils/sizes.rs`, develop docs
 * "Size Limits"), every item type included: the envelope reader asks for an item's budget as
 * soon as its header line is read and refuses the envelope (413, naming the item) at the first
 * byte over it. Container items (spans, logs, metrics) are bounded by their real bytes, never by
 * the entry count the client claims; types without a budget of their own, unknown ones included,
 * get the generic item budget.
 */
import type { RelayConfig } from '../config.js';
import type { JsonObject } from '../envelope/envelope.js';
import type { ReaderLimits } from '../envelope/envelope-reader.js';
import type { ItemAdmission, PayloadBudget } from '../envelope/item-admission.js';

/** Byte and count budgets (all from configuration). */
export interface ItemBudgets {
  readonly maxEventBytes: number;
  readonly maxAttachmentsBytes: number;
  readonly maxClientReportBytes: number;
  readonly maxCheckInBytes: number;
  readonly maxProfileBytes: number;
  readonly maxReplayBytes: number;
  readonly maxContainerBytes: number;
  readonly maxItemBytes: number;
  readonly maxSessions: number;
}

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
const PROFILES = new Set(['profile', 'profile_chunk']);
const REPLAYS = new Set(['replay_recording', 'replay_video']);

/** The byte budget of one item type (attachments share one envelope-wide budget instead). */
export function itemByteLimit(type: string, budgets: ItemBudgets): number {
  if (EVENT_LIKE.has(type)) return budgets.maxEventBytes;
  if (CONTAINERS.has(type)) return budgets.maxContainerBytes;
  if (PROFILES.has(type)) return budgets.maxProfileBytes;
  if (REPLAYS.has(type)) return budgets.maxReplayBytes;
  if (type === 'client_report') return budgets.maxClientReportBytes;
  if (type === 'check_in') return budgets.maxCheckInBytes;
  return budgets.maxItemBytes;
}

/** Budgets for the items of one envelope (attachments and sessions are counted across it). */
export function createItemAdmission(budgets: ItemBudgets): ItemAdmission {
  let attachmentBytes = 0;
  let sessions = 0;
  return {
    start(type: string, _header: JsonObject): PayloadBudget | string {
      if (type === 'session') {
        sessions += 1;
        if (sessions > budgets.maxSessions) return `more than ${budgets.maxSessions} sessions`;
      }
      if (type === 'attachment') {
        return {
          maxBytes: budgets.maxAttachmentsBytes - attachmentBytes,
          name: `the ${budgets.maxAttachmentsBytes}-byte limit for all attachments together`,
        };
      }
      const limit = itemByteLimit(type, budgets);
      return { maxBytes: limit, name: `the ${limit}-byte limit of its type` };
    },
    end(type: string, size: number): void {
      if (type === 'attachment') attachmentBytes += size;
    },
  };
}

/** The item budgets configured by `RELAY_MAX_*`. */
export function itemBudgetsFrom(config: RelayConfig): ItemBudgets {
  return {
    maxEventBytes: config.RELAY_MAX_EVENT_BYTES,
    maxAttachmentsBytes: config.RELAY_MAX_ATTACHMENTS_BYTES,
    maxClientReportBytes: config.RELAY_MAX_CLIENT_REPORT_BYTES,
    maxCheckInBytes: config.RELAY_MAX_CHECK_IN_BYTES,
    maxProfileBytes: config.RELAY_MAX_PROFILE_BYTES,
    maxReplayBytes: config.RELAY_MAX_REPLAY_BYTES,
    maxContainerBytes: config.RELAY_MAX_CONTAINER_BYTES,
    maxItemBytes: config.RELAY_MAX_ITEM_BYTES,
    maxSessions: config.RELAY_MAX_SESSIONS,
  };
}

/** The envelope-wide bounds configured by `RELAY_MAX_*`. */
export function readerLimitsFrom(config: RelayConfig): ReaderLimits {
  return {
    maxEnvelopeBytes: config.RELAY_MAX_ENVELOPE_BYTES,
    maxHeaderBytes: config.RELAY_MAX_HEADER_BYTES,
    maxItems: config.RELAY_MAX_ITEMS,
    maxJsonDepth: config.RELAY_MAX_JSON_DEPTH,
  };
}
