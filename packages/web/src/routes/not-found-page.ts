/**
 * The page rendered under the not-found root layout for URLs no route matches. The server and
 * the browser both use this definition, so hydration renders the same tree.
 */
import type { SegmentDefinition } from './route-types.js';

/** Id of the synthetic not-found page (reserved: applications may not use it). */
export const NOT_FOUND_PAGE_ID = 'not-found';

/** The synthetic page; its outcome is always not-found, so only the not-found view shows. */
export const NOT_FOUND_PAGE: SegmentDefinition<never> = {
  id: NOT_FOUND_PAGE_ID,
  path: '',
  kind: 'page',
  component: () => null,
};
