/**
 * The ingest decision for one received envelope (read, sized and authorised by the intake):
 * process (rate limits, filters, caps), record drops, spool, and describe the response,
 * including the current rate limits so SDKs back off too. Framework-free; the spool write is
 * the only I/O.
 */
import type { AllowedDsn } from '../dsn/dsn-registry.js';
import type { RequestFacts } from '../envelope/filterable-item.js';
import { itemCategory, itemQuantity } from '../envelope/item-category.js';
import { serializeEnvelope } from '../envelope/serialize-envelope.js';
import { eventKeyOf } from '../dedupe/event-key.js';
import type { EventDedupe } from '../dedupe/event-dedupe.js';
import { RelayError, errorBody } from '../errors.js';
import type { OutcomeSink } from '../outcomes/outcome-sink.js';
import {
  processEnvelope,
  type ProcessOptions,
  type ProcessResult,
} from '../pipeline/process-envelope.js';
import type { RateLimitState } from '../rate-limits/rate-limit-state.js';
import { formatRateLimits, retryAfterSeconds } from '../rate-limits/rate-limits.js';
import { withoutTransactions, type TraceExport } from '../otlp/trace-export.js';
import type { Spool } from '../spool/spool.js';
import type { IntakeContext, ReceivedEnvelope } from './envelope-intake.js';

/** Everything the decision needs. */
export interface IngestContext extends IntakeContext {
  readonly rateLimits: RateLimitState;
  readonly spool: Spool;
  readonly outcomes: OutcomeSink;
  readonly processOptions: (dsn: AllowedDsn) => ProcessOptions;
  readonly onAccepted: (dsnKey: string) => void;
  /** Recognises events accepted before (RELAY_DEDUPE_WINDOW); undefined when off. */
  readonly dedupe?: EventDedupe | undefined;
  /** An envelope answered as accepted without being spooled again. */
  readonly onDuplicate: (dsnKey: string) => void;
  /** Set with RELAY_OTLP_TRACES_URL: accepted transactions also leave as OTLP spans. */
  readonly traces?: TraceExport | undefined;
}

/** A response to send. */
export interface IngestResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** The analysis shared by ingest and the debug endpoint. */
export interface Analysis {
  readonly dsn: AllowedDsn;
  readonly result: ProcessResult;
  readonly rateLimitsHeader: string | undefined;
  readonly eventId: string | undefined;
}

/** Processes without side effects. */
export function analyzeEnvelope(
  context: IngestContext,
  received: ReceivedEnvelope,
  facts: RequestFacts,
): Analysis {
  const { dsn, envelope } = received;
  const now = context.now();
  const limits = context.rateLimits.get(dsn.key, now);
  const result = processEnvelope(envelope, limits, now, facts, context.processOptions(dsn));
  const eventId =
    typeof envelope.header.event_id === 'string' ? envelope.header.event_id : undefined;
  return { dsn, result, rateLimitsHeader: formatRateLimits(limits, now), eventId };
}

/** Seconds a DSN key over its spool share is told to wait (Sentry's default back-off). */
export const SPOOL_SHARE_RETRY_AFTER_SECONDS = 60;

/** 429 for a DSN key whose undelivered envelopes hold its whole share of the spool. */
function spoolShareExceeded(headers: Readonly<Record<string, string>>): IngestResponse {
  const error = new RelayError(
    'RELAY_SPOOL_SHARE_EXCEEDED',
    "this DSN's share of the relay spool is full; retry later",
  );
  const seconds = SPOOL_SHARE_RETRY_AFTER_SECONDS;
  const upstream = headers['x-sentry-rate-limits'];
  const limit = `${seconds}::key:spool_share`;
  return {
    status: error.status,
    headers: {
      'retry-after': String(seconds),
      'x-sentry-rate-limits': upstream ? `${limit}, ${upstream}` : limit,
      'x-sentry-error': error.message,
    },
    body: errorBody(error),
  };
}

/** Accepts an envelope: analysis, outcome recording and the durable spool write. */
export async function acceptEnvelope(
  context: IngestContext,
  received: ReceivedEnvelope,
  facts: RequestFacts,
): Promise<IngestResponse> {
  const analysis = analyzeEnvelope(context, received, facts);
  const { dsn, result } = analysis;
  const headers: Record<string, string> = {};
  if (analysis.rateLimitsHeader) headers['x-sentry-rate-limits'] = analysis.rateLimitsHeader;
  const ok: IngestResponse = {
    status: 200,
    headers,
    body: analysis.eventId ? { id: analysis.eventId } : {},
  };
  // A retry of an event already accepted gets the answer the first copy got, as from Sentry.
  const { dedupe } = context;
  const eventKey = dedupe && result.envelope ? eventKeyOf(dsn.key, analysis.eventId) : undefined;
  if (dedupe && eventKey !== undefined) {
    const seen = dedupe.seen(eventKey);
    if (typeof seen === 'boolean' ? seen : await seen) {
      context.onDuplicate(dsn.key);
      return ok;
    }
  }
  // Only a copy kept whole is remembered: had a part been dropped (a rate limit that has since
  // ended), a retry must still be able to deliver it.
  const rememberAs = result.drops.length === 0 ? eventKey : undefined;
  for (const drop of result.drops)
    context.outcomes.record(dsn.key, drop.reason, drop.category, drop.quantity);

  if (!result.envelope) {
    if (!result.fullyRateLimited) return ok;
    const now = context.now();
    const limits = context.rateLimits.get(dsn.key, now);
    const categories = result.decisions.map((decision) => decision.category);
    const error = new RelayError(
      'RELAY_RATE_LIMITED',
      'every item in the envelope is rate limited upstream',
    );
    return {
      status: 429,
      headers: { ...headers, 'retry-after': String(retryAfterSeconds(limits, categories, now)) },
      body: { error: { code: error.code, message: error.message } },
    };
  }
  // Accepted transactions leave as spans once the envelope is spooled; with RELAY_OTLP_ONLY
  // they leave only that way, and an envelope of nothing else is not spooled at all.
  const envelope = context.traces?.only ? withoutTransactions(result.envelope) : result.envelope;
  if (!envelope) {
    context.traces?.exportTransactions(result.envelope.items);
    markAccepted(context, dsn.key, rememberAs);
    return ok;
  }
  const bytes =
    result.changed || envelope !== result.envelope ? serializeEnvelope(envelope) : received.bytes;
  let spooled;
  try {
    spooled = await context.spool.append(dsn.key, bytes, context.now());
  } catch (cause) {
    throw new RelayError(
      'RELAY_SPOOL_WRITE_FAILED',
      'the envelope could not be written to the spool',
      { cause },
    );
  }
  if (spooled === 'full' || spooled === 'over-share') {
    for (const item of result.envelope.items) {
      context.outcomes.record(
        dsn.key,
        'queue-overflow',
        itemCategory(item.type),
        itemQuantity(item.header),
      );
    }
    if (spooled === 'full') {
      throw new RelayError('RELAY_SPOOL_FULL', 'the relay spool is full; retry later');
    }
    return spoolShareExceeded(headers);
  }
  context.traces?.exportTransactions(result.envelope.items);
  markAccepted(context, dsn.key, rememberAs);
  return ok;
}

/** Counts an accepted envelope and, when it carries one to remember, records its event key. */
function markAccepted(context: IngestContext, dsnKey: string, eventKey: string | undefined): void {
  if (eventKey !== undefined) context.dedupe?.accepted(eventKey);
  context.onAccepted(dsnKey);
}
