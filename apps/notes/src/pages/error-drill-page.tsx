/**
 * /notes/broken: a page whose loader always fails, served only with NOTES_ERROR_DRILL=true. No
 * segment above it has an error view, so the failure reaches the runtime's application-error
 * screen (status 500, with a digest).
 */
import { segment } from '@strata/web';
import type { NotesServices } from '../services.js';

/** The drill's failure message (logged; production browsers never see it). */
export const DRILL_FAILURE = 'Deliberate failure (NOTES_ERROR_DRILL)';

/** /notes/broken */
export const errorDrillPage = segment<null, NotesServices>({
  id: 'notes-broken',
  path: 'broken',
  kind: 'page',
  loader: () => {
    throw new Error(DRILL_FAILURE);
  },
  component: () => <p>unreachable</p>,
});
