/**
 * The exact texts of the application-error screens (the specification's wording), shared by
 * the server's error document and the browser's error screen.
 */

/** For errors that happened on the server. */
export const SERVER_ERROR_TEXT =
  'Application error: a server-side exception has occurred (see the server logs for more information).';

/** For errors that happened in the browser. */
export const CLIENT_ERROR_TEXT =
  'Application error: a client-side exception has occurred (see the browser console for more information).';
