/**
 * The render service alone, serving the notes app (RENDER_APP=@strata/app-notes): no data
 * service, notes in a fresh temporary copy of the app's seed file, the error drill on.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, localUrl, startOnFreePort, type ServiceProcess } from './processes.js';

/** The seed the notes file starts as. */
export const NOTES_SEED_FILE = join(ROOT, 'apps/notes/seed/notes.json');

/** A note as NOTES_FILE holds it. */
export interface SavedNote {
  readonly id: number;
  readonly author: string;
  readonly text: string;
  readonly createdAt: string;
}

/** The running render service and its notes file. */
export interface NotesStack {
  readonly renderUrl: string;
  /** The NOTES_FILE the service reads and writes. */
  readonly notesFile: string;
  readonly render: ServiceProcess;
  /** The notes on disk right now, in file order (oldest first). */
  savedNotes(): Promise<SavedNote[]>;
  stop(): Promise<void>;
}

/** Starts the render service on the notes app; `renderEnv` adds or overrides settings. */
export async function startNotesStack(renderEnv: Record<string, string> = {}): Promise<NotesStack> {
  const directory = await mkdtemp(join(tmpdir(), 'strata-e2e-notes-'));
  const notesFile = join(directory, 'notes.json');
  await copyFile(NOTES_SEED_FILE, notesFile);
  const render = await startOnFreePort(
    'render (notes)',
    'services/render/dist/main.js',
    (port) => ({
      RENDER_APP: '@strata/app-notes',
      RENDER_PORT: String(port),
      PUBLIC_ORIGINS: localUrl(port),
      ACTION_SALT: 'e2e-notes-action-salt',
      NOTES_FILE: notesFile,
      NOTES_ERROR_DRILL: 'true',
      LOG_LEVEL: 'warn',
      ...renderEnv,
    }),
    (port) => ({ url: `${localUrl(port)}/readyz` }),
  ).catch(async (error: unknown) => {
    await rm(directory, { recursive: true, force: true });
    throw error;
  });
  return {
    renderUrl: localUrl(render.port),
    notesFile,
    render,
    async savedNotes() {
      return (JSON.parse(await readFile(notesFile, 'utf8')) as { notes: SavedNote[] }).notes;
    },
    async stop() {
      await render.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
