/**
 * The add-note form's schema: what a browser may send, as form strings or JSON.
 */
import { z } from 'zod';
import { NOTE_LIMITS } from '../domain/note-limits.js';

/** AddNote's input. */
export const addNoteInput = z.object({
  author: z
    .string({ error: 'Enter your name' })
    .trim()
    .min(1, 'Enter your name')
    .max(NOTE_LIMITS.author, `Names are at most ${NOTE_LIMITS.author} characters`),
  text: z
    .string({ error: 'Write a note' })
    .trim()
    .min(1, 'Write a note')
    .max(NOTE_LIMITS.text, `Notes are at most ${NOTE_LIMITS.text} characters`),
});
