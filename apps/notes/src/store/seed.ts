/**
 * The seed notes shipped with the package (seed/notes.json): what the app starts with when
 * NOTES_FILE is unset.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** seed/notes.json; the same two levels up from src/store and dist/store. */
export const SEED_FILE = fileURLToPath(new URL('../../seed/notes.json', import.meta.url));

/** The seed file's text. */
export function readSeedText(): Promise<string> {
  return readFile(SEED_FILE, 'utf8');
}
