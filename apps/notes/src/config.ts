/**
 * The notes app's environment, parsed once when the app starts.
 */
import { bool, durationMs, loadConfig } from '@strata/config';
import { z } from 'zod';

/** Every variable the notes app reads. */
export const NotesConfigSchema = z.object({
  NOTES_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      'JSON file holding the notes; every added note is written to it, and several processes may share it (render replicas on one volume). Missing, it is created from the package’s seed/notes.json (its directory must exist). Unset: notes are kept in memory, seeded from the same file, and lost when the process exits.',
    ),
  NOTES_STATS_DELAY: durationMs('800ms').describe(
    'How long the stats page’s data takes on purpose, and then its streamed part again.',
  ),
  NOTES_ERROR_DRILL: bool(false).describe(
    'Serve /notes/broken, whose loader always fails (the application-error screen); tests and development only.',
  ),
});

/** Parsed, frozen configuration. */
export type NotesConfig = Readonly<z.output<typeof NotesConfigSchema>>;

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadNotesConfig(env: Readonly<Record<string, string | undefined>>): NotesConfig {
  return loadConfig('notes app', NotesConfigSchema, env);
}
