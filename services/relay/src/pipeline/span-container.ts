/**
 * Filtering of streamed span containers (`span` items, `application/vnd.sentry.items.span.v2+json`,
 * payload `{"version":2,"items":[...]}`): each segment span (`is_segment: true`) is judged as a
 * transaction; a filtered segment takes every span of that segment with it. Pure.
 */
import { nestingWithin, parseJson } from '../envelope/bounded-json.js';
import type { EnvelopeItem, JsonObject } from '../envelope/envelope.js';
import { viewOfSegmentSpan, type RequestFacts } from '../envelope/filterable-item.js';
import { replacePayload } from '../envelope/serialize-envelope.js';
import { runFilters, type Filter, type FilterConfig } from '../filters/filter.js';
import type { DropReason } from '../outcomes/drop-reason.js';

/** Result: the item to keep (same object when untouched, null when empty) and span drops. */
export interface SpanContainerOutcome {
  readonly item: EnvelopeItem | null;
  readonly drops: ReadonlyArray<{ readonly reason: DropReason; readonly quantity: number }>;
  readonly changes: readonly string[];
}

const encoder = new TextEncoder();

/** What the container filter needs. */
export interface SpanContainerOptions {
  readonly filters: readonly Filter[];
  readonly filterConfig: FilterConfig;
  readonly maxJsonDepth: number;
}

/** Applies transaction filters to the segments in a span container. */
export function filterSpanContainer(
  item: EnvelopeItem,
  facts: RequestFacts,
  options: SpanContainerOptions,
): SpanContainerOutcome {
  const untouched: SpanContainerOutcome = { item, drops: [], changes: [] };
  // A container the relay cannot read (or could not re-serialise) is forwarded as it is.
  const parsed = parseJson(item.payload);
  if (!parsed.ok) return untouched;
  const container = parsed.value as JsonObject;
  const spans = Array.isArray(container?.items) ? (container.items as unknown[]) : null;
  if (!spans) return untouched;

  const filteredSegments = new Map<string, DropReason>();
  for (const raw of spans) {
    const span = raw as JsonObject;
    if (span?.is_segment !== true || typeof span.span_id !== 'string') continue;
    const filterId = runFilters(
      options.filters,
      viewOfSegmentSpan(span, facts),
      options.filterConfig,
    );
    if (filterId) filteredSegments.set(span.span_id, `filtered:${filterId}`);
  }
  if (filteredSegments.size === 0 || !nestingWithin(item.payload, options.maxJsonDepth)) {
    return untouched;
  }

  const counts = new Map<DropReason, number>();
  const kept = spans.filter((raw) => {
    const reason = filteredSegments.get(segmentIdOf(raw as JsonObject));
    if (reason) counts.set(reason, (counts.get(reason) ?? 0) + 1);
    return reason === undefined;
  });
  const drops = [...counts.entries()].map(([reason, quantity]) => ({ reason, quantity }));
  const changes = [`${spans.length - kept.length} of ${spans.length} spans dropped`];
  if (kept.length === 0) return { item: null, drops, changes };
  const payload = encoder.encode(JSON.stringify({ ...container, items: kept }));
  return { item: replacePayload(item, payload, { item_count: kept.length }), drops, changes };
}

function segmentIdOf(span: JsonObject): string {
  const attributes = span?.attributes as JsonObject | undefined;
  const attribute = attributes?.['sentry.segment.id'] as JsonObject | undefined;
  if (typeof attribute?.value === 'string') return attribute.value;
  if (span?.is_segment === true && typeof span.span_id === 'string') return span.span_id;
  return '';
}
