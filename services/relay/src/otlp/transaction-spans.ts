/**
 * A Sentry transaction event as OpenTelemetry spans, in OTLP/HTTP's JSON encoding: the
 * transaction itself (from `contexts.trace`) and each of its child spans, under a resource that
 * names the service that sent it. Pure.
 *
 * Times: Sentry sends float seconds; they are rounded to whole microseconds (all a double holds
 * for today's epoch) and written as integer nanoseconds in strings, as OTLP JSON wants 64-bit
 * integers.
 */
import type { JsonObject } from '../envelope/envelope.js';

/** OTLP's attribute value (only the kinds a transaction carries). */
export type OtlpValue =
  | { readonly stringValue: string }
  | { readonly boolValue: boolean }
  | { readonly intValue: string }
  | { readonly doubleValue: number };

export interface OtlpAttribute {
  readonly key: string;
  readonly value: OtlpValue;
}

export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: readonly OtlpAttribute[];
  readonly status: { readonly code: number };
}

/** One service's spans: an element of `ExportTraceServiceRequest.resourceSpans`. */
export interface OtlpResourceSpans {
  readonly resource: { readonly attributes: readonly OtlpAttribute[] };
  readonly scopeSpans: readonly {
    readonly scope: { readonly name: string };
    readonly spans: readonly OtlpSpan[];
  }[];
}

/** OTLP's SpanKind. */
const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
/** OTLP's StatusCode. */
const STATUS = { unset: 0, ok: 1, error: 2 } as const;
const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** Float seconds to integer nanoseconds, as a string; undefined when not a time. */
function nanos(seconds: unknown): string | undefined {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return undefined;
  return (BigInt(Math.round(seconds * 1e6)) * 1000n).toString();
}

function kindOf(op: string | undefined): number {
  if (!op) return SPAN_KIND.internal;
  if (op.endsWith('.server') || op === 'pageload' || op === 'navigation') return SPAN_KIND.server;
  if (op.endsWith('.client')) return SPAN_KIND.client;
  return SPAN_KIND.internal;
}

function statusOf(status: unknown): { code: number } {
  if (status === undefined || status === null) return { code: STATUS.unset };
  return { code: status === 'ok' ? STATUS.ok : STATUS.error };
}

function attributeValue(value: unknown): OtlpValue | undefined {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number' && Number.isFinite(value))
    return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return undefined;
}

/** The primitive entries of `data` (nested values are left out), then `extra`. */
function attributesOf(data: unknown, extra: Readonly<Record<string, unknown>>): OtlpAttribute[] {
  const attributes: OtlpAttribute[] = [];
  const add = (key: string, raw: unknown) => {
    const value = attributeValue(raw);
    if (value) attributes.push({ key, value });
  };
  for (const [key, raw] of Object.entries(extra)) add(key, raw);
  if (isObject(data)) for (const [key, raw] of Object.entries(data)) add(key, raw);
  return attributes;
}

/** The service that sent the event: its `service` tag, else the browser SDK, else its platform. */
function serviceName(event: JsonObject): string {
  const tags = event.tags;
  const tagged = isObject(tags) ? text(tags.service) : undefined;
  if (tagged) return tagged;
  const sdk = isObject(event.sdk) ? text(event.sdk.name) : undefined;
  if (sdk?.startsWith('sentry.javascript.browser') || sdk?.startsWith('sentry.javascript.react'))
    return 'browser';
  return text(event.platform) ?? 'unknown';
}

function span(fields: {
  traceId: string;
  spanId: unknown;
  parentSpanId: unknown;
  name: string;
  op: string | undefined;
  start: unknown;
  end: unknown;
  status: unknown;
  data: unknown;
}): OtlpSpan | undefined {
  const spanId = text(fields.spanId);
  const start = nanos(fields.start);
  const end = nanos(fields.end) ?? start;
  if (!spanId || !SPAN_ID.test(spanId) || !start || !end) return undefined;
  const parent = text(fields.parentSpanId);
  return {
    traceId: fields.traceId,
    spanId,
    ...(parent && SPAN_ID.test(parent) && { parentSpanId: parent }),
    name: fields.name,
    kind: kindOf(fields.op),
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    attributes: attributesOf(fields.data, fields.op ? { 'sentry.op': fields.op } : {}),
    status: statusOf(fields.status),
  };
}

/** The transaction's spans under its service's resource; undefined when it has no trace. */
export function transactionSpans(event: JsonObject): OtlpResourceSpans | undefined {
  const contexts = isObject(event.contexts) ? event.contexts : undefined;
  const trace = contexts && isObject(contexts.trace) ? contexts.trace : undefined;
  const traceId = trace ? text(trace.trace_id) : undefined;
  if (!trace || !traceId || !TRACE_ID.test(traceId)) return undefined;
  const rootOp = text(trace.op);
  const root = span({
    traceId,
    spanId: trace.span_id,
    parentSpanId: trace.parent_span_id,
    name: text(event.transaction) ?? rootOp ?? 'transaction',
    op: rootOp,
    start: event.start_timestamp,
    end: event.timestamp,
    status: trace.status,
    data: trace.data,
  });
  if (!root) return undefined;
  const children = (Array.isArray(event.spans) ? event.spans : []).flatMap((raw) => {
    if (!isObject(raw)) return [];
    const op = text(raw.op);
    const child = span({
      traceId,
      spanId: raw.span_id,
      parentSpanId: raw.parent_span_id,
      name: text(raw.description) ?? op ?? 'span',
      op,
      start: raw.start_timestamp,
      end: raw.timestamp,
      status: raw.status,
      data: raw.data,
    });
    return child ? [child] : [];
  });
  return {
    resource: {
      attributes: attributesOf(undefined, {
        'service.name': serviceName(event),
        ...(text(event.release) && { 'service.version': event.release }),
        ...(text(event.environment) && { 'deployment.environment.name': event.environment }),
      }),
    },
    scopeSpans: [{ scope: { name: 'strata-relay' }, spans: [root, ...children] }],
  };
}
