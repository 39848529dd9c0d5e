/**
 * The notes app on both render replicas (docker-compose.notes.yml over docker-compose.yml), its
 * NOTES_FILE on a volume they share: the file is created once from the seed, a note added
 * through the gateway is on every page whichever replica answers, and a change made by another
 * process (no action, so no revalidation) reaches both replicas' cached pages through the app's
 * change feed within seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComposeStack, type ComposeStack } from './compose-stack.js';

let stack: ComposeStack;

beforeAll(async () => {
  stack = await startComposeStack('notes', {
    overrides: ['docker-compose.notes.yml'],
    readyPath: '/notes',
  });
}, 600_000);

afterAll(async () => {
  await stack?.down();
}, 120_000);

const page = async (path: string) => {
  const response = await fetch(`${stack.url}${path}`);
  return { status: response.status, body: await response.text() };
};

/** Reads `paths` through the gateway `times` times; resolves with every answer. */
async function readAll(paths: readonly string[], times: number) {
  const answers: { path: string; status: number; body: string }[] = [];
  // Every other round backwards: the gateway alternates replicas, so a fixed order would send
  // each path to one replica only.
  for (let i = 0; i < times; i++)
    for (const path of i % 2 === 0 ? paths : [...paths].reverse())
      answers.push({ path, ...(await page(path)) });
  return answers;
}

/** The replicas (upstream addresses) the gateway sent GETs of `path` to, from its access log. */
async function upstreamsOf(path: string): Promise<Set<string>> {
  const log = await stack.compose('logs', '--no-color', 'gateway');
  const pattern = new RegExp(`"method":"GET","uri":"${path}".*?"upstream":"([^"]+)"`, 'g');
  return new Set([...log.matchAll(pattern)].map((match) => match[1]!));
}

/**
 * Run in the first render replica's container, beside (not inside) its render service: adds a note with the
 * app's own store (under the file's lock), then edits note 1 by hand (write and rename).
 */
const ANOTHER_PROCESS = `
import { rename, readFile, writeFile } from 'node:fs/promises';
const { openNotesStore } = await import('/app/apps/notes/dist/store/notes-store.js');
const file = process.env.NOTES_FILE;
const store = await openNotesStore({ kind: 'file', path: file });
const { note } = await store.add({ author: 'Cron', text: process.argv[1] });
await store.close();
const document = JSON.parse(await readFile(file, 'utf8'));
document.notes.find((n) => n.id === 1).text = process.argv[2];
await writeFile(file + '.edit', JSON.stringify(document, null, 2));
await rename(file + '.edit', file);
console.log(note.id);
`;

describe('the notes app on two replicas sharing NOTES_FILE', () => {
  it('created the file from the seed once, whichever replica started first', async () => {
    const logs = await stack.compose('logs', '--no-color', 'render');
    expect(logs.match(/notes: created NOTES_FILE from the seed/g)).toHaveLength(1);
    const ready = await page('/notes');
    expect(ready.body).toMatch(/<strong class="note-count">3<\/strong>/);
  });

  it('shows a note added through the gateway on every read, from both replicas', async () => {
    const form = await page('/notes');
    const actionId = /<input type="hidden" name="\$action" value="([0-9a-f]{32})"\/>/.exec(
      form.body,
    )?.[1];
    expect(actionId).toBeDefined();
    const text = `Shared by both replicas ${Date.now()}`;
    const added = await fetch(`${stack.url}/notes`, {
      method: 'POST',
      redirect: 'manual',
      // The gateway's own origin: startComposeStack sets PUBLIC_ORIGINS to it.
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.url },
      body: new URLSearchParams({ $action: actionId ?? '', author: 'Compose', text }),
    });
    expect(added.status).toBe(303);
    const path = added.headers.get('location') ?? '';
    expect(path).toMatch(/^\/notes\/\d+$/);

    const answers = await readAll(['/notes', path], 20);
    const missing = answers.filter(
      (answer) =>
        answer.status !== 200 ||
        !answer.body.includes(answer.path === path ? `<blockquote>${text}</blockquote>` : path),
    );
    expect(missing.map((answer) => `${answer.path}: ${answer.status}`)).toEqual([]);
    // Both replicas answered each page: one that had not seen the note would have shown above.
    expect((await upstreamsOf(path)).size).toBe(2);
    expect((await upstreamsOf('/notes')).size).toBe(2);
  });

  it('drops both replicas’ cached pages when another process changes the file', async () => {
    // Cached on both replicas (and in Redis): the list and note 1.
    const before = await readAll(['/notes', '/notes/1'], 6);
    expect(before.every((answer) => answer.status === 200)).toBe(true);
    // Short: the list shows a note's first 140 characters.
    const added = `Beside the replicas ${Date.now()}`;
    const edited = `Edited by hand ${Date.now()}`;
    const changed = Date.now();
    const id = (
      await stack.compose(
        'exec',
        '-T',
        'render',
        'node',
        '--input-type=module',
        '-e',
        ANOTHER_PROCESS,
        added,
        edited,
      )
    ).trim();
    expect(id).toMatch(/^\d+$/);

    // Ten answers in a row (both replicas) that show both changes.
    const showsBoth = (answer: { path: string; body: string }) =>
      answer.path === '/notes'
        ? answer.body.includes(`href="/notes/${id}"`) && answer.body.includes(edited)
        : answer.body.includes(`<blockquote>${edited}</blockquote>`);
    let inARow = 0;
    while (inARow < 10) {
      const [answer] = await readAll([inARow % 2 === 0 ? '/notes' : '/notes/1'], 1);
      inARow = answer && showsBoth(answer) ? inARow + 1 : 0;
      expect(Date.now() - changed, 'the change is on every page within 5 s').toBeLessThan(5_000);
    }
    console.log(`[notes] another process's change on every page after ${Date.now() - changed} ms`);
  });
});
