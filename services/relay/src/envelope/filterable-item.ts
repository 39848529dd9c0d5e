/**
 * The narrow view filters see (Relay's `Filterable`): built from an error event, a static
 * transaction event or a streamed segment span. Filters never touch raw payloads. Pure.
 */
import type { JsonObject } from './envelope.js';

/** One exception of an event, in event order (the thrown exception is last). */
export interface ExceptionView {
  readonly type?: string | undefined;
  readonly value?: string | undefined;
  /** `abs_path` (else `filename`) of each frame, outermost first as in the event. */
  readonly frameUrls: readonly string[];
}

/** What filters may look at. */
export interface FilterableItem {
  readonly kind: 'error' | 'transaction';
  readonly message?: string | undefined;
  readonly exceptions: readonly ExceptionView[];
  readonly transactionName?: string | undefined;
  /** How the name was derived (`url`, `route`, `custom`...), when known. */
  readonly nameSource?: string | undefined;
  readonly op?: string | undefined;
  readonly status?: string | undefined;
  readonly finishReason?: string | undefined;
  readonly cancellationReason?: string | undefined;
  readonly urlPath?: string | undefined;
  readonly httpMethod?: string | undefined;
  readonly release?: string | undefined;
  readonly userIp?: string | undefined;
  readonly requestUrl?: string | undefined;
  readonly userAgent?: string | undefined;
  /** Headers recorded in the event's `request`, names lower-cased. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The IP address of the client that sent the envelope to the relay. */
  readonly clientIp?: string | undefined;
}

/** Facts about the HTTP request that carried the envelope. */
export interface RequestFacts {
  readonly clientIp?: string | undefined;
  readonly userAgent?: string | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const obj = (value: unknown): JsonObject | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
const arr = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/** Builds the view of an `event` or `transaction` item payload. */
export function viewOfEvent(event: JsonObject, facts: RequestFacts = {}): FilterableItem {
  const request = obj(event.request) ?? {};
  const headers = headerRecord(request.headers);
  const trace = obj(obj(event.contexts)?.trace) ?? {};
  const traceData = obj(trace.data) ?? {};
  const logentry = obj(event.logentry);
  const message =
    str(logentry?.formatted) ??
    str(logentry?.message) ??
    str(event.message) ??
    str(obj(event.message)?.formatted);
  const requestUrl = str(request.url);
  return {
    kind: event.type === 'transaction' ? 'transaction' : 'error',
    message,
    exceptions: exceptionsOf(event),
    transactionName: str(event.transaction),
    nameSource: str(obj(event.transaction_info)?.source),
    op: str(trace.op),
    status: str(trace.status),
    finishReason: str(traceData['sentry.idle_span_finish_reason']),
    cancellationReason: str(traceData['sentry.cancellation_reason']),
    urlPath: requestUrl ? pathOf(requestUrl) : undefined,
    httpMethod: str(request.method),
    release: str(event.release),
    userIp: str(obj(event.user)?.ip_address),
    requestUrl,
    userAgent: headers['user-agent'] ?? facts.userAgent,
    requestHeaders: headers,
    clientIp: facts.clientIp,
  };
}

/** Builds the view of a streamed segment span (span v2 JSON with typed attributes). */
export function viewOfSegmentSpan(span: JsonObject, facts: RequestFacts = {}): FilterableItem {
  const attributes = obj(span.attributes) ?? {};
  const attr = (key: string): string | undefined => str(obj(attributes[key])?.value);
  const userAgent = attr('user_agent.original') ?? facts.userAgent;
  return {
    kind: 'transaction',
    exceptions: [],
    transactionName: str(span.name),
    nameSource: attr('sentry.segment.name.source'),
    op: attr('sentry.op'),
    status: str(span.status),
    finishReason: attr('sentry.idle_span_finish_reason'),
    cancellationReason: attr('sentry.cancellation_reason'),
    urlPath: attr('url.path') ?? pathOf(attr('url.full')),
    httpMethod: attr('http.request.method'),
    release: attr('sentry.release'),
    userIp: attr('user.ip_address'),
    requestUrl: attr('url.full'),
    userAgent,
    requestHeaders: userAgent ? { 'user-agent': userAgent } : {},
    clientIp: facts.clientIp,
  };
}

function exceptionsOf(event: JsonObject): ExceptionView[] {
  const container = event.exception;
  const values = Array.isArray(container) ? container : arr(obj(container)?.values);
  return values.map((raw) => {
    const exception = obj(raw) ?? {};
    const frames = arr(obj(exception.stacktrace)?.frames);
    return {
      type: str(exception.type),
      value: str(exception.value),
      frameUrls: frames
        .map((frame) => str(obj(frame)?.abs_path) ?? str(obj(frame)?.filename))
        .filter((url): url is string => url !== undefined),
    };
  });
}

function headerRecord(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (const pair of raw) {
      if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string') {
        out[pair[0].toLowerCase()] = pair[1];
      }
    }
  } else {
    for (const [name, value] of Object.entries(obj(raw) ?? {})) {
      if (typeof value === 'string') out[name.toLowerCase()] = value;
    }
  }
  return out;
}

function pathOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url);
  if (match) return match[1] || '/';
  return url.startsWith('/') ? url.replace(/[?#].*$/, '') : undefined;
}

/** Candidate texts for message filters: message, and each exception's value / type: value. */
export function messageCandidates(item: FilterableItem): string[] {
  const out: string[] = [];
  if (item.message) out.push(item.message);
  for (const exception of item.exceptions) {
    if (exception.value !== undefined) out.push(exception.value);
    if (exception.type !== undefined && exception.value !== undefined) {
      out.push(`${exception.type}: ${exception.value}`);
    } else if (exception.type !== undefined) {
      out.push(exception.type);
    }
  }
  return out;
}
