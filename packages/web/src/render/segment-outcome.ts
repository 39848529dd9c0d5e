/**
 * What a segment's loader produced, in a form both the server renderer and the browser use:
 * data (with deferred keys), an error digest, not-found or a redirect.
 */

/** The settled result of one segment's loader. */
export type SegmentOutcome =
  | { readonly status: 'ok'; readonly data: unknown; readonly deferred: readonly string[] }
  | { readonly status: 'error'; readonly digest: string; readonly message: string }
  | { readonly status: 'not-found' }
  | {
      readonly status: 'redirect';
      readonly location: string;
      readonly httpStatus: 303 | 307 | 308;
    };

/** A deferred value as delivered: resolved or failed with a digest. */
export type DeferredOutcome =
  | { readonly status: 'ok'; readonly value: unknown }
  | { readonly status: 'error'; readonly digest: string; readonly message: string };

/** Message shown for server errors in production (details stay in the server logs). */
export const HIDDEN_ERROR_MESSAGE = 'A server error occurred.';
