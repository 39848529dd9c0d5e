/**
 * The notes app's server action: add a note, revalidate what the store says it changed, and
 * land on the new note's page. It belongs to the list page, whose form posts it.
 */
import { defineAction, type ActionContext } from '@strata/web/server';
import type { NotesServices } from '../services.js';
import { addNoteInput } from './note-input.js';

export const addNote = defineAction({
  module: 'notes/notes',
  name: 'addNote',
  segment: 'note-list',
  input: addNoteInput,
  async handler(input, { services, revalidate, redirect }: ActionContext<NotesServices>) {
    const { note, tags } = await services.notes.add(input);
    revalidate(...tags);
    redirect(`/notes/${note.id}`);
    return { ok: true, result: { id: note.id } };
  },
});

/** Every action of the app. */
export const notesActions = [addNote] as const;
