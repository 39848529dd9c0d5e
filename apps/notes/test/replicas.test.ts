/**
 * Two instances of the app on one NOTES_FILE, as two render replicas on a shared volume have it:
 * a note added through one is on the other's pages, and the other's change feed names it, so its
 * segment cache drops what it held (the render service hands `watchChanges` to its cache).
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEED_FILE } from '../src/store/seed.js';
import { ORIGIN, serveNotes, type NotesServer } from './harness/serve-notes.js';

let directory: string;
let file: string;
let replicas: NotesServer[];
let stops: (() => void)[];
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'notes-replicas-'));
  file = join(directory, 'notes.json');
  await copyFile(SEED_FILE, file);
  replicas = await Promise.all([
    serveNotes({ NOTES_FILE: file }),
    serveNotes({ NOTES_FILE: file }),
  ]);
  stops = [];
});
afterEach(async () => {
  for (const stop of stops) stop();
  await Promise.all(replicas.map((replica) => replica.close()));
  await rm(directory, { recursive: true, force: true });
});

const addThrough = (replica: NotesServer, text: string) =>
  replica.app.inject({
    method: 'POST',
    url: '/notes',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    payload: new URLSearchParams({
      $action: replica.actionIds['addNote'] ?? '',
      author: 'Replica',
      text,
    }).toString(),
  });

describe('two app instances on one NOTES_FILE', () => {
  it('serve each other’s notes, and the other’s change feed names the new note', async () => {
    const [first, second] = replicas as [NotesServer, NotesServer];
    const feed: string[][] = [];
    const watcher = second.running.watchChanges?.({
      onTags: async (tags) => void feed.push([...tags]),
      onReset: async () => void feed.push(['(reset)']),
    });
    expect(watcher).toBeDefined();
    stops.push(() => watcher?.stop());

    const added = await addThrough(first, 'Added through the first');
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe('/notes/4');
    const page = await second.app.inject({ url: '/notes/4' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<blockquote>Added through the first</blockquote>');
    await vi.waitFor(() => expect(feed).toEqual([['notes', 'note:4']]));

    // And back: the second's note gets the next id, and the first lists both.
    expect((await addThrough(second, 'And through the second')).headers.location).toBe('/notes/5');
    const list = await first.app.inject({ url: '/notes' });
    expect(list.body).toMatch(/<strong class="note-count">5<\/strong>/);
  });

  it('has no change feed when the notes are kept in memory', async () => {
    const inMemory = await serveNotes();
    try {
      expect(inMemory.running.watchChanges).toBeUndefined();
    } finally {
      await inMemory.close();
    }
  });
});
