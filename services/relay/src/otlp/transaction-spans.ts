/**
 * A Sentry transaction event as OpenTelemetry spans, in OTLP/HTTP's JSON encoding: the
 * transaction itself (from `contexts.trace`) and each of its child spans, under a resource that
 * names the service that sent it. Pure.
 *
 * Times: Sentry sends float seconds, whose double holds today's epoch to about 0.24 µs; they are
 * rounded to the nearest whole microsecond (finer digits would be the double's noise) and
 * written as integer nanoseconds in strings, as OTLP JSON wants 64-bit integers.
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
  readonly status: { readonly code: number; readonly message?: string };
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
  // Whole seconds and their fraction apart: `seconds - whole` is exact, while `seconds * 1e6`
  // would itself round by up to a quarter microsecond at today's epoch.
  const whole = Math.floor(seconds);
  const micros = Math.round((seconds - whole) * 1e6);
  return (BigInt(whole) * 1_000_000_000n + BigInt(micros) * 1000n).toString();
}

/** `http.server`, `grpc.server`… are SERVER, `….client` CLIENT; the rest (pageload too) INTERNAL. */
function kindOf(op: string | undefined): number {
  if (op?.endsWith('.server')) return SPAN_KIND.server;
  if (op?.endsWith('.client')) return SPAN_KIND.client;
  return SPAN_KIND.internal;
}

/** Sentry's `ok` is OK; every other status (`internal_error`, `not_found`…) is an error. */
function statusOf(status: unknown): OtlpSpan['status'] {
  if (typeof status !== 'string' || status === '') return { code: STATUS.unset };
  return status === 'ok' ? { code: STATUS.ok } : { code: STATUS.error, message: status };
}

function attributeValue(value: unknown): OtlpValue | undefined {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  // int64 in JSON is a decimal string; integers past 2^53 are no longer exact, so stay doubles.
  if (typeof value === 'number' && Number.isFinite(value))
    return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return undefined;
}

/**
 * The primitive entries of each source in turn (nested values are left out); a key appears once,
 * from the first source that has it (the SDK repeats `sentry.op` in `data`).
 */
function attributesOf(...sources: unknown[]): OtlpAttribute[] {
  const attributes = new Map<string, OtlpValue>();
  for (const source of sources) {
    if (!isObject(source)) continue;
    for (const [key, raw] of Object.entries(source)) {
      const value = attributeValue(raw);
      if (value && !attributes.has(key)) attributes.set(key, value);
    }
  }
  return [...attributes].map(([key, value]) => ({ key, value }));
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
  /** Attribute sources after `sentry.op`, earlier ones winning. */
  data: unknown[];
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
    attributes: attributesOf({ 'sentry.op': fields.op }, ...fields.data),
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
    // The event's tags describe the transaction: they go on its span, after its own data.
    data: [trace.data, event.tags],
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
      data: [raw.data],
    });
    return child ? [child] : [];
  });
  const sdk = isObject(event.sdk) ? event.sdk : {};
  return {
    resource: {
      attributes: attributesOf({
        'service.name': serviceName(event),
        'service.version': text(event.release),
        'deployment.environment.name': text(event.environment),
        'host.name': text(event.server_name),
        'telemetry.sdk.name': text(sdk.name),
        'telemetry.sdk.version': text(sdk.version),
      }),
    },
    scopeSpans: [{ scope: { name: 'strata-relay' }, spans: [root, ...children] }],
  };
}
