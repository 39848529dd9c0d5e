/**
 * The event caps (docs/relay.md, "Caps") applied to an event the relay already parsed: message and exception
 * values cut to `maxValueLength` characters (with the SDK's `...` marker), the newest
 * `maxBreadcrumbs` breadcrumbs, the innermost `maxFrames` stack frames, and a `baggage` request
 * header of at most 8192 characters (whole entries dropped, as the SDK does). Mutates the given
 * object (the caller owns its freshly parsed copy) and reports what changed.
 */
import type { JsonObject } from '../envelope/envelope.js';

/** The caps an event is held to. */
export interface EventLimits {
  readonly maxValueLength: number;
  readonly maxBreadcrumbs: number;
  readonly maxFrames: number;
  readonly maxBaggageLength: number;
}

/** The defaults the browser SDK is set to (docs/telemetry.md, "Browser"; docs/relay.md). */
export const SPEC_EVENT_LIMITS: EventLimits = {
  maxValueLength: 250,
  maxBreadcrumbs: 100,
  maxFrames: 50,
  maxBaggageLength: 8192,
};

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Applies the caps in place; returns a short description of each change. */
export function applyEventLimits(event: JsonObject, limits: EventLimits): string[] {
  const changes: string[] = [];
  const cut = (value: string): string => `${value.slice(0, limits.maxValueLength)}...`;

  if (typeof event.message === 'string' && event.message.length > limits.maxValueLength) {
    event.message = cut(event.message);
    changes.push('message truncated');
  }
  const logentry = event.logentry;
  if (isObject(logentry)) {
    for (const key of ['message', 'formatted'] as const) {
      const value = logentry[key];
      if (typeof value === 'string' && value.length > limits.maxValueLength) {
        logentry[key] = cut(value);
        changes.push(`logentry.${key} truncated`);
      }
    }
  }

  const exception = event.exception;
  const values = Array.isArray(exception) ? exception : isObject(exception) ? exception.values : [];
  if (Array.isArray(values)) {
    values.forEach((raw, index) => {
      if (!isObject(raw)) return;
      if (typeof raw.value === 'string' && raw.value.length > limits.maxValueLength) {
        raw.value = cut(raw.value);
        changes.push(`exception ${index} value truncated`);
      }
      const stacktrace = raw.stacktrace;
      if (isObject(stacktrace) && Array.isArray(stacktrace.frames)) {
        const frames = stacktrace.frames;
        if (frames.length > limits.maxFrames) {
          // Frames are ordered outermost first; the crash site is last: keep the innermost.
          stacktrace.frames = frames.slice(frames.length - limits.maxFrames);
          changes.push(`exception ${index} frames cut to ${limits.maxFrames}`);
        }
      }
    });
  }

  const crumbs = event.breadcrumbs;
  const crumbList = Array.isArray(crumbs) ? crumbs : isObject(crumbs) ? crumbs.values : undefined;
  if (Array.isArray(crumbList) && crumbList.length > limits.maxBreadcrumbs) {
    const newest = crumbList.slice(crumbList.length - limits.maxBreadcrumbs);
    if (Array.isArray(crumbs)) event.breadcrumbs = newest;
    else if (isObject(crumbs)) crumbs.values = newest;
    changes.push(`breadcrumbs cut to ${limits.maxBreadcrumbs}`);
  }

  if (capBaggage(event.request, limits.maxBaggageLength)) changes.push('baggage header capped');
  return changes;
}

function capBaggage(request: unknown, maxLength: number): boolean {
  if (!isObject(request) || !isObject(request.headers)) return false;
  const headers = request.headers;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (name.toLowerCase() !== 'baggage' || typeof value !== 'string') continue;
    if (value.length <= maxLength) return false;
    let kept = '';
    for (const entry of value.split(',')) {
      const next = kept ? `${kept},${entry}` : entry;
      if (next.length <= maxLength) kept = next;
    }
    headers[name] = kept;
    return true;
  }
  return false;
}
