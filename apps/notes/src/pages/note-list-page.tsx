/**
 * /notes: every note, newest first, and the form that adds one.
 */
import { Link, segment } from '@strata/web';
import type { Note } from '../domain/note.js';
import type { NotesServices } from '../services.js';
import { NoteForm } from './note-form.js';
import { NoteTime } from './note-date.js';
import { NotesError } from './notes-layout.js';

/** How much of a note the list shows. */
const EXCERPT = 140;

function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text;
}

/** /notes */
export const noteListPage = segment<{ notes: Note[] }, NotesServices>({
  id: 'note-list',
  path: '',
  kind: 'page',
  async loader({ services, tag }) {
    const { notes, tags } = await services.notes.list();
    tag(...tags);
    return { notes };
  },
  component: ({ data }) => (
    <section>
      <h1>Guestbook</h1>
      <h2>Leave a note</h2>
      <NoteForm />
      {data.notes.length === 0 ? <p className="empty">No notes yet: be the first.</p> : null}
      <ul className="notes">
        {data.notes.map((note) => (
          <li key={note.id} className="note">
            <Link href={`/notes/${note.id}`}>{excerpt(note.text)}</Link>
            <p className="meta">
              {note.author}, <NoteTime iso={note.createdAt} />
            </p>
          </li>
        ))}
      </ul>
    </section>
  ),
  error: NotesError,
});
