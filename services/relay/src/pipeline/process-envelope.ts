/**
 * The relay's processing of one accepted envelope, pure: drop rate-limited items, run the
 * filters over events, static transactions and streamed segment spans, apply the event caps
 * and optional PII scrubbing. Items nothing touches keep their original bytes.
 */
import { nestingWithin, parseJson } from '../envelope/bounded-json.js';
import type { Envelope, EnvelopeItem, JsonObject } from '../envelope/envelope.js';
import { viewOfEvent, type RequestFacts } from '../envelope/filterable-item.js';
import { itemCategory, itemQuantity } from '../envelope/item-category.js';
import { replacePayload } from '../envelope/serialize-envelope.js';
import { runFilters, type Filter, type FilterConfig } from '../filters/filter.js';
import { applyEventLimits, type EventLimits } from '../limits/event-limits.js';
import { scrubEvent } from '../limits/scrub-pii.js';
import type { DropReason } from '../outcomes/drop-reason.js';
import { isRateLimited, type RateLimits } from '../rate-limits/rate-limits.js';
import { filterSpanContainer } from './span-container.js';

/** Processing settings (per project). */
export interface ProcessOptions {
  readonly filters: readonly Filter[];
  readonly filterConfig: FilterConfig;
  readonly eventLimits: EventLimits;
  readonly scrubPii: boolean;
  /** An event nested deeper is not re-serialised: if it must be rewritten, it is dropped. */
  readonly maxJsonDepth: number;
}

/** One dropped quantity. */
export interface Drop {
  readonly reason: DropReason;
  readonly category: string;
  readonly quantity: number;
}

/** What happened to one item (for the debug endpoint and logs). */
export interface ItemDecision {
  readonly type: string;
  readonly category: string;
  readonly action: 'forward' | 'modify' | 'drop';
  readonly reason?: DropReason;
  readonly changes: readonly string[];
}

/** Result: the envelope to forward (null when no item is left) and the drops. */
export interface ProcessResult {
  readonly envelope: Envelope | null;
  readonly changed: boolean;
  readonly drops: readonly Drop[];
  readonly decisions: readonly ItemDecision[];
  /** True when every item was dropped because of rate limits. */
  readonly fullyRateLimited: boolean;
}

const encoder = new TextEncoder();
/** Items that belong to an error event and go when it goes (Relay's `EnvelopeLimiter`). */
const DEPENDENT_TYPES = new Set(['attachment', 'user_report']);

/** Processes an envelope against the current rate limits at `now`. */
export function processEnvelope(
  envelope: Envelope,
  rateLimits: RateLimits,
  now: number,
  facts: RequestFacts,
  options: ProcessOptions,
): ProcessResult {
  const drops: Drop[] = [];
  const decisions: ItemDecision[] = [];
  const kept: EnvelopeItem[] = [];
  let changed = false;
  let eventDrop: DropReason | undefined;
  let rateLimitedItems = 0;

  const drop = (item: EnvelopeItem, category: string, reason: DropReason): void => {
    drops.push({ reason, category, quantity: itemQuantity(item.header) });
    decisions.push({ type: item.type, category, action: 'drop', reason, changes: [] });
    if (reason === 'rate-limited') rateLimitedItems += 1;
    changed = true;
  };

  // Event-like items first, so dependent attachments share their fate wherever they sit.
  const ordered = [...envelope.items].sort((a, b) => rank(a) - rank(b));
  const results = new Map<EnvelopeItem, EnvelopeItem | null>();
  for (const item of ordered) {
    const category = itemCategory(item.type);
    if (isRateLimited(rateLimits, category, now)) {
      if (item.type === 'event') eventDrop = 'rate-limited';
      drop(item, category, 'rate-limited');
      results.set(item, null);
      continue;
    }
    if (eventDrop && DEPENDENT_TYPES.has(item.type)) {
      drop(item, category, eventDrop);
      results.set(item, null);
      continue;
    }
    if (item.type === 'event' || item.type === 'transaction') {
      const outcome = processEvent(item, facts, options);
      if (outcome.kind === 'drop') {
        if (item.type === 'event') eventDrop = outcome.reason;
        drop(item, category, outcome.reason);
        results.set(item, null);
        continue;
      }
      if (outcome.kind === 'modify') {
        changed = true;
        decisions.push({ type: item.type, category, action: 'modify', changes: outcome.changes });
        results.set(item, outcome.item);
        continue;
      }
    } else if (item.type === 'span') {
      const outcome = filterSpanContainer(item, facts, options);
      for (const spanDrop of outcome.drops) drops.push({ ...spanDrop, category: 'span' });
      if (outcome.item === null) {
        changed = true;
        decisions.push({
          type: item.type,
          category,
          action: 'drop',
          reason: outcome.drops[0]?.reason,
          changes: [],
        });
        results.set(item, null);
        continue;
      }
      if (outcome.item !== item) {
        changed = true;
        decisions.push({ type: item.type, category, action: 'modify', changes: outcome.changes });
        results.set(item, outcome.item);
        continue;
      }
    }
    decisions.push({ type: item.type, category, action: 'forward', changes: [] });
    results.set(item, item);
  }
  for (const item of envelope.items) {
    const result = results.get(item);
    if (result) kept.push(result);
  }
  return {
    envelope: kept.length > 0 ? { ...envelope, items: kept } : null,
    changed,
    drops,
    decisions,
    fullyRateLimited: envelope.items.length > 0 && rateLimitedItems === envelope.items.length,
  };
}

function rank(item: EnvelopeItem): number {
  return item.type === 'event' || item.type === 'transaction' ? 0 : 1;
}

type EventOutcome =
  | { readonly kind: 'keep' }
  | { readonly kind: 'drop'; readonly reason: DropReason }
  | { readonly kind: 'modify'; readonly item: EnvelopeItem; readonly changes: string[] };

function processEvent(
  item: EnvelopeItem,
  facts: RequestFacts,
  options: ProcessOptions,
): EventOutcome {
  const parsed = parseJson(item.payload);
  if (!parsed.ok || !isObject(parsed.value)) return { kind: 'drop', reason: 'invalid-item' };
  const event = parsed.value;
  if (item.type === 'transaction' && event.type === undefined) event.type = 'transaction';
  const filterId = runFilters(options.filters, viewOfEvent(event, facts), options.filterConfig);
  if (filterId) return { kind: 'drop', reason: `filtered:${filterId}` };
  const changes = item.type === 'event' ? applyEventLimits(event, options.eventLimits) : [];
  if (options.scrubPii) changes.push(...scrubEvent(event));
  if (changes.length === 0) return { kind: 'keep' };
  if (!nestingWithin(item.payload, options.maxJsonDepth))
    return { kind: 'drop', reason: 'invalid-item' };
  return {
    kind: 'modify',
    item: replacePayload(item, encoder.encode(JSON.stringify(event))),
    changes,
  };
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
