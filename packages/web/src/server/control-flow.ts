/**
 * Errors a loader throws on purpose to change the response: not found and redirect. They are
 * never logged or reported as failures.
 */
import { sameSiteLocation } from './same-site-location.js';

/** Thrown by `context.notFound()`. */
export class NotFoundSignal extends Error {
  constructor() {
    super('not found');
    this.name = 'NotFoundSignal';
  }
}

/** Thrown by `context.redirect()`. */
export class RedirectSignal extends Error {
  readonly location: string;
  readonly status: 303 | 307 | 308;

  constructor(location: string, status: 303 | 307 | 308) {
    super(`redirect to ${location}`);
    this.name = 'RedirectSignal';
    // Never off-site, whatever the loader was given (a `?next=` from the query, say).
    this.location = sameSiteLocation(location);
    this.status = status;
  }
}
