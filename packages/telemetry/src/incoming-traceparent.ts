/**
 * Continues the W3C trace of incoming HTTP requests that carry only `traceparent` (an
 * OpenTelemetry client or proxy). @sentry/node's HTTP server integration continues
 * `sentry-trace`/`baggage` only, reading them when the server emits 'request'; Node publishes
 * `http.server.request.start` just before that emit, so a subscriber can add the equivalent
 * `sentry-trace` to the request's headers in time. Public API only: no patching.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { sentryTraceToAdd } from './w3c-traceparent.js';

const REQUEST_START = 'http.server.request.start';

function addSentryTrace(message: unknown): void {
  const { request } = message as { request: IncomingMessage };
  const sentryTrace = sentryTraceToAdd(request.headers);
  if (sentryTrace) request.headers['sentry-trace'] = sentryTrace;
}

let subscribed = false;

/**
 * Starts continuing W3C traces on every HTTP server of the process (as the SDK instruments every
 * one); calling it again changes nothing. Returns the function that stops it.
 */
export function continueW3cTraceparent(): () => void {
  if (!subscribed) {
    subscribe(REQUEST_START, addSentryTrace);
    subscribed = true;
  }
  return stopContinuingW3cTraceparent;
}

function stopContinuingW3cTraceparent(): void {
  if (!subscribed) return;
  unsubscribe(REQUEST_START, addSentryTrace);
  subscribed = false;
}
