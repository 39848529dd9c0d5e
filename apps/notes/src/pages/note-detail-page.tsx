/**
 * /notes/:id: one note. Ids that are not canonical numbers, and numbers no note has, are not
 * found.
 */
import { Link, segment } from '@strata/web';
import type { Note } from '../domain/note.js';
import { parseNoteId } from '../domain/note-id.js';
import type { NotesServices } from '../services.js';
import { NoteTime } from './note-date.js';
import { NotesError } from './notes-layout.js';

/** /notes/:id */
export const noteDetailPage = segment<{ note: Note }, NotesServices>({
  id: 'note-detail',
  path: ':id',
  kind: 'page',
  async loader({ params, services, tag, notFound }) {
    const id = parseNoteId(params['id']);
    if (id === null) return notFound();
    const { note, tags } = await services.notes.get(id);
    if (!note) return notFound();
    tag(...tags);
    return { note };
  },
  component: ({ data: { note } }) => (
    <article className="note note-detail">
      <h1>{`Note ${note.id}`}</h1>
      <blockquote>{note.text}</blockquote>
      <p className="meta">
        Written by <span className="author">{note.author}</span>, <NoteTime iso={note.createdAt} />
      </p>
      <Link href="/notes">All notes</Link>
    </article>
  ),
  error: NotesError,
});
