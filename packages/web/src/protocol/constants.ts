/**
 * Names and limits of the delivery protocol (docs/protocol.md). Shared by server and browser.
 */

/** Version of the payload records and the tree header. */
export const PROTOCOL_VERSION = 1;

/** Request and response headers. */
export const HEADERS = {
  payload: 'strata-payload',
  tree: 'strata-tree',
  prefetch: 'strata-prefetch',
  action: 'strata-action',
  build: 'strata-build',
  /** On a 404 for an action id the server does not know: lets the client tell it from a page 404. */
  actionNotFound: 'strata-action-not-found',
} as const;

/** The query parameter carrying the hash of the payload headers. */
export const PAYLOAD_QUERY_PARAM = '_p';

/** Content type of a payload stream (newline-delimited JSON records). */
export const PAYLOAD_CONTENT_TYPE = 'application/x-strata-payload; v=1';

/** `Vary` on every answer whose body depends on the payload headers. */
export const PAYLOAD_VARY = 'Strata-Payload, Strata-Tree, Strata-Prefetch';

/** Limits of the tree header. */
export const TREE_LIMITS = {
  /** Longer headers are refused with 431. */
  maxLength: 4096,
  maxSegments: 32,
} as const;

/** The global the document's first script sets: the browser runtime's boot record. */
export const BOOT_GLOBAL = '__strata_boot';
