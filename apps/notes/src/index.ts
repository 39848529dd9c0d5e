/**
 * `@strata/app-notes`: the notes app as the render service loads it. Starting it parses the
 * app's variables, opens the notes store (NOTES_FILE, or the seed in memory) and hands the
 * routes, the per-request services and the file's change feed to the runtime.
 */
import type { StrataApp } from '@strata/web/server';
import { resolve } from 'node:path';
import { notesActions } from './actions/note-actions.js';
import { loadNotesConfig } from './config.js';
import { notesRoutes } from './routes.js';
import type { NotesServices } from './services.js';
import { openNotesStore } from './store/notes-store.js';
import { SEED_FILE, readSeedText } from './store/seed.js';

export type { NotesServices } from './services.js';

const notesApp: StrataApp<NotesServices> = {
  name: 'notes',
  actions: notesActions,
  async start(host) {
    const config = loadNotesConfig(host.env);
    // Absolute, so messages name the file whatever the working directory was.
    const file = config.NOTES_FILE && resolve(config.NOTES_FILE);
    const seedText = await readSeedText();
    // A missing file is created from the seed; other processes may share it (a volume).
    const store = await openNotesStore(
      file
        ? { kind: 'file', path: file, seedText, seedName: SEED_FILE }
        : { kind: 'memory', seedText, seedName: SEED_FILE },
      { log: host.logger },
    );
    if (file) host.logger.info({ file }, 'notes: reading and writing NOTES_FILE');
    else
      host.logger.warn(
        { seed: SEED_FILE },
        'notes: NOTES_FILE is unset; notes are kept in memory and lost at exit',
      );
    const services: NotesServices = {
      notes: store,
      statsDelayMs: config.NOTES_STATS_DELAY,
    };
    return {
      routes: notesRoutes({ errorDrill: config.NOTES_ERROR_DRILL }),
      servicesFor: () => services,
      async readiness() {
        const readable = await store.readable();
        return { ready: readable, details: { storage: store.storage, readable } };
      },
      // Another replica or a hand edit changed the file: its notes' cached segments go.
      ...(store.watch && { watchChanges: store.watch }),
      close: () => store.close(),
    };
  },
};

export default notesApp;
