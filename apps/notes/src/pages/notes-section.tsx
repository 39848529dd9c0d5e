/**
 * The /notes section's layout: a heading with the number of notes above every notes page. Its
 * loader is tagged like the list, so adding a note refreshes the count too.
 */
import { segment, type SegmentDefinition } from '@strata/web';
import type { NotesServices } from '../services.js';

/** Layout of /notes and everything below it. */
export function notesSection(
  children: readonly SegmentDefinition<NotesServices>[],
): SegmentDefinition<NotesServices> {
  return segment<{ count: number }, NotesServices>({
    id: 'notes-section',
    path: 'notes',
    kind: 'layout',
    async loader({ services, tag }) {
      const { notes, tags } = await services.notes.list();
      tag(...tags);
      return { count: notes.length };
    },
    component: ({ data, children: page }) => (
      <>
        <p className="section-heading">
          The guestbook holds <strong className="note-count">{data.count}</strong>{' '}
          {data.count === 1 ? 'note' : 'notes'}.
        </p>
        {page}
      </>
    ),
    children,
  });
}
