/**
 * The stats page over a real socket: the shell with the loading view arrives before the totals
 * are ready; the totals then stream with the tally's fallback, and the tally after that.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serveNotes, type NotesServer } from './harness/serve-notes.js';

const DELAY_MS = 400;
let server: NotesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function open(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => httpRequest(url, resolve).on('error', reject).end());
}

/** Every chunk of the body, with when it arrived (ms after the request was sent). */
function chunksOf(response: IncomingMessage, sent: number) {
  return new Promise<{ text: string; at: number }[]>((resolve) => {
    const chunks: { text: string; at: number }[] = [];
    response.on('data', (chunk: Buffer) =>
      chunks.push({ text: chunk.toString(), at: performance.now() - sent }),
    );
    response.on('end', () => resolve(chunks));
  });
}

describe('the stats page', () => {
  it('streams the loading view first, then the totals, then the deferred tally', async () => {
    server = await serveNotes({ NOTES_STATS_DELAY: `${DELAY_MS}ms` });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const sent = performance.now();
    const response = await open(`http://127.0.0.1:${port}/notes/stats`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-accel-buffering']).toBe('no');
    const chunks = await chunksOf(response, sent);

    const first = chunks[0]!;
    expect(first.text).toContain('<title>Strata Notes</title>');
    expect(first.text).toContain('<p class="stats-loading">Counting the notes…</p>');
    expect(first.text).not.toContain('class="totals"');
    expect(first.at).toBeLessThan(DELAY_MS);

    const body = chunks.map((c) => c.text).join('');
    const arrival = (marker: string) => chunks.find((c) => c.text.includes(marker))?.at ?? -1;
    expect(body).toMatch(/<strong>3<\/strong> notes by <strong>2<\/strong> authors/);
    expect(body).toContain('<ol class="busiest"><li>Ada<!-- -->: <!-- -->2</li>');
    // Each part comes after its delay (a little slack for timer granularity).
    expect(arrival('class="totals"')).toBeGreaterThanOrEqual(DELAY_MS - 20);
    expect(arrival('class="busiest"')).toBeGreaterThanOrEqual(2 * DELAY_MS - 20);
    expect(body.indexOf('Tallying authors…')).toBeGreaterThan(body.indexOf('class="totals"'));
    expect(body.indexOf('Tallying authors…')).toBeLessThan(body.indexOf('class="busiest"'));
  });
});
