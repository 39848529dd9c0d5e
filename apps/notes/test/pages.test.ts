/**
 * The notes pages through the real runtime: the app's own shell, list, detail, not-found, the
 * redirect from /, the tags loaders name, and the error drill.
 */
import { SERVER_ERROR_TEXT } from '@strata/web/server';
import { payloadHash } from '@strata/web';
import { afterEach, describe, expect, it } from 'vitest';
import { serveNotes, type NotesServer } from './harness/serve-notes.js';

let server: NotesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function get(url: string, env: Record<string, string> = {}) {
  server ??= await serveNotes(env);
  return server.app.inject({ url });
}

/** The payload records of `url` as the browser asks for them on a full navigation. */
async function payloadOf(url: string): Promise<Record<string, unknown>[]> {
  server ??= await serveNotes();
  const response = await server.app.inject({
    url: `${url}?_p=${payloadHash({ tree: '1;', prefetch: undefined })}`,
    headers: { 'strata-payload': '1', 'strata-tree': '1;' },
  });
  expect(response.statusCode).toBe(200);
  return response.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the notes pages', () => {
  it('sends / to the guestbook', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(307);
    expect(response.headers.location).toBe('/notes');
  });

  it('lists the seed notes newest first in the app’s own shell, with the add-note form', async () => {
    const { statusCode, body } = await get('/notes');
    expect(statusCode).toBe(200);
    expect(body).toContain('<title>Strata Notes</title>');
    expect(body).toContain('<header class="masthead">');
    expect(body).toMatch(/The guestbook holds <strong class="note-count">3<\/strong>/);
    const order = ['/notes/3"', '/notes/2"', '/notes/1"'].map((href) => body.indexOf(href));
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(body).toContain(
      `<input type="hidden" name="$action" value="${server?.actionIds['addNote']}"/>`,
    );
    expect(server?.actionIds['addNote']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('shows one note by id', async () => {
    const { statusCode, body } = await get('/notes/2');
    expect(statusCode).toBe(200);
    expect(body).toContain('<h1>Note 2</h1>');
    expect(body).toContain('Written by <span class="author">Grace</span>');
    expect(body).toContain('<time dateTime="2025-01-06T10:42:00.000Z">6 January 2025, 10:42 UTC');
  });

  it.each(['/notes/99', '/notes/02', '/notes/two', '/nowhere/at/all'])(
    'answers %s with 404 and the app’s not-found view',
    async (url) => {
      const { statusCode, body } = await get(url);
      expect(statusCode).toBe(404);
      expect(body).toContain('<title>Strata Notes</title>');
      expect(body).toContain('<h1>No such note</h1>');
    },
  );

  it('tags each segment with what its loader read', async () => {
    const records = await payloadOf('/notes/2');
    const tags = Object.fromEntries(
      records.filter((r) => r['type'] === 'segment').map((r) => [r['id'], r['tags']]),
    );
    expect(tags).toEqual({ notes: [], 'notes-section': ['notes'], 'note-detail': ['note:2'] });
  });

  it('reports itself ready, from memory when NOTES_FILE is unset', async () => {
    server = await serveNotes();
    await expect(server.running.readiness?.()).resolves.toEqual({
      ready: true,
      details: { storage: 'memory', readable: true },
    });
    expect(server.logged).toContainEqual(
      expect.objectContaining({ level: 'warn', message: expect.stringMatching(/in memory/) }),
    );
  });
});

describe('the error drill', () => {
  it('is an id that is not found while NOTES_ERROR_DRILL is off', async () => {
    const { statusCode, body } = await get('/notes/broken');
    expect(statusCode).toBe(404);
    expect(body).toContain('<h1>No such note</h1>');
    expect(server?.reported).toEqual([]);
  });

  it('fails in its loader and shows the application-error screen when on', async () => {
    const { statusCode, body } = await get('/notes/broken', { NOTES_ERROR_DRILL: 'true' });
    expect(statusCode).toBe(500);
    expect(body).toContain(SERVER_ERROR_TEXT);
    expect(body).not.toContain('Deliberate failure');
    expect(server?.reported).toHaveLength(1);
    expect(server?.reported[0]).toMatchObject({ segmentId: 'notes-broken' });
    expect(body).toContain(`Digest: ${server?.reported[0]?.digest}`);
  });
});
