/**
 * What a duplicate is recognised by: the project key and the envelope header's `event_id`, a
 * UUID (Sentry's SDKs write it as 32 hex digits; dashes and capitals are read the same). Any
 * other value is not an id this relay can trust to be unique, so it is never deduplicated.
 */

// The form SDKs send, read as it is; the others are normalised to it.
const SDK_FORM = /^[0-9a-f]{32}$/;
const ANY_FORM = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The dedupe key of an envelope, or undefined when its header carries no usable event id. */
export function eventKeyOf(dsnKey: string, eventId: unknown): string | undefined {
  if (typeof eventId !== 'string') return undefined;
  if (SDK_FORM.test(eventId)) return `${dsnKey}:${eventId}`;
  if (!ANY_FORM.test(eventId)) return undefined;
  return `${dsnKey}:${eventId.replaceAll('-', '').toLowerCase()}`;
}
