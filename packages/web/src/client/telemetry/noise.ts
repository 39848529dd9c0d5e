/**
 * Errors that are noise, not bugs: the same ones the relay filters, dropped in the browser
 * so they cost no bandwidth. Pure; the SDK setup plugs these in.
 */

/** Messages matched against an error's message and its exception values. */
export const NOISE_MESSAGES: readonly RegExp[] = [
  // A cross-origin script threw: the browser hides everything but this text.
  /^Script error\.?$/,
  /^Javascript error: Script error\.? on line 0$/,
  // Chromium's and older browsers' wording of a harmless layout-loop notice.
  /^ResizeObserver loop completed with undelivered notifications\.?$/i,
  /^ResizeObserver loop limit exceeded$/i,
];

/** Errors thrown to redirect, never failures (the relay's RELAY_FILTER_REDIRECT_MARKERS). */
export const REDIRECT_MARKERS: readonly string[] = ['STRATA_REDIRECT', 'NEXT_REDIRECT'];

interface ExceptionLike {
  readonly type?: string;
  readonly value?: string;
}

/** True when the event's first exception is redirect control flow. */
export function isRedirectControlFlow(event: {
  exception?: { values?: readonly ExceptionLike[] };
}): boolean {
  const first = event.exception?.values?.[0];
  if (!first) return false;
  return REDIRECT_MARKERS.some(
    (marker) =>
      first.type === marker || first.value === marker || !!first.value?.startsWith(`${marker};`),
  );
}
