/**
 * The render image is not tied to the catalogue: the same image (strata-render:<tag>, built by
 * the global setup) serves the notes app when RENDER_APP=@strata/app-notes, alone (no data
 * service, no Redis), in production mode with what its guard asks for (a salt that is not a
 * committed value, PUBLIC_ORIGINS), its notes in a file on a mounted directory.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './compose-stack.js';
import { serviceImage } from './images.js';
import { runReadyContainer, type ReadyContainer } from './ready-container.js';

const name = `strata-notes-image-${process.pid}`;
let origin = '';
let notesDir: string | undefined;
let container: ReadyContainer | undefined;

const notesFile = () => join(notesDir ?? '', 'notes.json');
const savedNotes = () =>
  (JSON.parse(readFileSync(notesFile(), 'utf8')) as { notes: { id: number; text: string }[] })
    .notes;

beforeAll(async () => {
  const image = await serviceImage('render');
  // The container runs as "node": it must be able to replace the file (atomic rename).
  notesDir = mkdtempSync(join(tmpdir(), 'strata-notes-image-'));
  copyFileSync(join(ROOT, 'apps/notes/seed/notes.json'), notesFile());
  chmodSync(notesDir, 0o777);
  chmodSync(notesFile(), 0o666);
  container = await runReadyContainer({
    image,
    name,
    volumes: [`${notesDir}:/notes`],
    env: (published) => [
      'RENDER_APP=@strata/app-notes',
      `ACTION_SALT=${randomBytes(24).toString('hex')}`,
      `PUBLIC_ORIGINS=${published}`,
      'NOTES_FILE=/notes/notes.json',
      'LOG_LEVEL=warn',
    ],
    what: 'the notes container',
  });
  origin = container.origin;
}, 600_000);

afterAll(async () => {
  await container?.remove();
  if (notesDir) rmSync(notesDir, { recursive: true, force: true });
}, 120_000);

describe('the render image with RENDER_APP=@strata/app-notes', () => {
  it('runs in production mode and reports ready with the notes file readable', async () => {
    const env = await run(['docker', 'inspect', '-f', '{{json .Config.Env}}', name]);
    expect(JSON.parse(env) as string[]).toContain('NODE_ENV=production');
    const response = await fetch(`${origin}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      storage: 'file',
      readable: true,
    });
  });

  it('answers /notes with the notes app’s own document and bundle', async () => {
    const response = await fetch(`${origin}/notes`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<title>Strata Notes</title>');
    expect(html).toContain('<h1>Guestbook</h1>');
    expect(html).not.toContain('Catalogue');
    const script = /<script type="module" src="(\/assets\/client-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const bundle = await fetch(`${origin}${script}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
  });

  it('adds a note through the page’s form action, from an allowed origin only', async () => {
    const html = await (await fetch(`${origin}/notes`)).text();
    const actionId = /<input type="hidden" name="\$action" value="([0-9a-f]{32})"\/>/.exec(
      html,
    )?.[1];
    expect(actionId).toBeDefined();
    const text = `From the image at ${Date.now()}`;
    const post = (from: string) =>
      fetch(`${origin}/notes`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: from },
        body: new URLSearchParams({ $action: actionId ?? '', author: 'Docker', text }),
      });

    const foreign = await post('http://127.0.0.1:1');
    expect(foreign.status).toBe(403);
    expect(savedNotes()).toHaveLength(3);

    const response = await post(origin);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/notes/4');
    const page = await fetch(`${origin}/notes/4`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<blockquote>${text}</blockquote>`);
    // Written through the mounted directory, where the host sees it.
    expect(savedNotes().at(-1)).toMatchObject({ id: 4, text });
  });
});
