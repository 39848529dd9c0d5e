/**
 * Limits a note's fields share across the file, the action and the form (a module of its own,
 * so the browser bundle gets them without the file schema's zod).
 */

/** Longest author name and note text, in characters. */
export const NOTE_LIMITS = { author: 60, text: 500 } as const;
