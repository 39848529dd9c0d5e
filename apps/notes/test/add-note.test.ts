/**
 * The add-note action through the real runtime against a real NOTES_FILE: a form posted without
 * JavaScript, the same with invalid input, and the browser runtime's fetch call.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_FILE } from '../src/store/seed.js';
import { ORIGIN, serveNotes, type NotesServer } from './harness/serve-notes.js';

let directory: string;
let file: string;
let server: NotesServer | undefined;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'notes-app-'));
  file = join(directory, 'notes.json');
  await copyFile(SEED_FILE, file);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(directory, { recursive: true, force: true });
});

const savedNotes = async () =>
  (JSON.parse(await readFile(file, 'utf8')) as { notes: { id: number; author: string }[] }).notes;

async function postForm(fields: Record<string, string>) {
  server ??= await serveNotes({ NOTES_FILE: file });
  return server.app.inject({
    method: 'POST',
    url: '/notes',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    payload: new URLSearchParams({
      $action: server.actionIds['addNote'] ?? '',
      ...fields,
    }).toString(),
  });
}

describe('adding a note', () => {
  it('writes it to NOTES_FILE, revalidates its tags and lands on its page (no JavaScript)', async () => {
    const response = await postForm({ author: '  Linus ', text: 'Hello from a form' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/notes/4');
    expect(server?.revalidated).toEqual([['notes', 'note:4']]);
    expect((await savedNotes()).map((n) => [n.id, n.author])).toEqual([
      [1, 'Ada'],
      [2, 'Grace'],
      [3, 'Ada'],
      [4, 'Linus'],
    ]);
    const page = await server!.app.inject({ url: '/notes/4' });
    expect(page.body).toContain('<blockquote>Hello from a form</blockquote>');
    const list = await server!.app.inject({ url: '/notes' });
    expect(list.body).toMatch(/<strong class="note-count">4<\/strong>/);
  });

  it('shows the form again with field errors and what was typed, and saves nothing', async () => {
    const before = await readFile(file, 'utf8');
    const response = await postForm({ author: ' ', text: 'Kept <b>as typed</b>' });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('<span class="field-error">Enter your name</span>');
    expect(response.body).toContain('Kept &lt;b&gt;as typed&lt;/b&gt;</textarea>');
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(server?.revalidated).toEqual([]);
  });

  it('answers the browser runtime’s call with the result and a redirect record', async () => {
    server = await serveNotes({ NOTES_FILE: file });
    const response = await server.app.inject({
      method: 'POST',
      url: '/notes',
      headers: {
        'content-type': 'application/json',
        origin: ORIGIN,
        'strata-action': server.actionIds['addNote'] ?? '',
      },
      payload: JSON.stringify({ author: 'Grace', text: 'Sent with fetch' }),
    });
    expect(response.statusCode).toBe(200);
    const records = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.slice(0, 2)).toEqual([
      { type: 'action', ok: true, result: { id: 4 }, revalidated: ['notes', 'note:4'], v: 1 },
      { type: 'redirect', location: '/notes/4', status: 303, v: 1 },
    ]);
    expect(await savedNotes()).toHaveLength(4);
  });
});

describe('starting on a missing or bad NOTES_FILE', () => {
  it('refuses a malformed file with a message naming it and the problem', async () => {
    await writeFile(file, '{"version":1,"notes":[{"id":1}]}');
    await expect(serveNotes({ NOTES_FILE: file })).rejects.toThrow(
      new RegExp(`Cannot use the notes file ${file}:\\n {2}- notes\\[0\\]\\.author: `),
    );
  });

  it('creates a missing file from the seed, and says so', async () => {
    await rm(file);
    server = await serveNotes({ NOTES_FILE: file });
    expect(await readFile(file, 'utf8')).toBe(await readFile(SEED_FILE, 'utf8'));
    expect(server.logged).toContainEqual({
      level: 'info',
      details: { file, seed: SEED_FILE },
      message: 'notes: created NOTES_FILE from the seed',
    });
  });

  it('refuses a missing file whose directory is missing too', async () => {
    await rm(directory, { recursive: true });
    await expect(serveNotes({ NOTES_FILE: file })).rejects.toThrow(
      /does not exist, nor does its directory/,
    );
  });

  it('refuses a malformed variable through the shared config errors', async () => {
    await expect(serveNotes({ NOTES_ERROR_DRILL: 'maybe' })).rejects.toThrow(
      /Invalid notes app configuration:\n {2}- NOTES_ERROR_DRILL: "maybe" is not a boolean/,
    );
  });
});
