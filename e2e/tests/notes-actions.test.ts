/**
 * The notes app's writes and failures (apps/notes on the real render service) in Chromium: the
 * add-note action writes NOTES_FILE and refreshes the list without a reload, an invalid note
 * shows the server's field errors in place, and a failing loader ends on the runtime's error
 * screen, with a digest and never its message.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPage } from '../harness/browser.js';
import {
  isPayload,
  load,
  marker,
  navigate,
  pathOf,
  recordRequests,
} from '../harness/router-page.js';
import { useNotesStackAndBrowser } from '../harness/suite.js';

const suite = useNotesStackAndBrowser();
const url = (path: string) => `${suite.stack().renderUrl}${path}`;

/** What the notes app's loader throws on /notes/broken (apps/notes error-drill-page.tsx). */
const DRILL_FAILURE = 'Deliberate failure (NOTES_ERROR_DRILL)';
const SERVER_ERROR_TEXT =
  'Application error: a server-side exception has occurred (see the server logs for more information).';

describe('the add-note action', () => {
  it('posts the action from the enhanced form, shows the new note, writes NOTES_FILE and refreshes the list', async () => {
    const { page, problems } = await openPage(suite.browser());
    const requests = recordRequests(page);
    await load(page, url('/notes'));
    const countBefore = (await suite.stack().savedNotes()).length;
    const actionId = await page.locator('form.note-form input[name="$action"]').inputValue();
    const text = `Written in Chromium at ${Date.now()}`;

    await page.fill('form.note-form input[name="author"]', 'Linus');
    await page.fill('form.note-form textarea[name="text"]', text);
    const posted = page.waitForRequest((r) => r.method() === 'POST');
    await page.click('form.note-form button[type="submit"]');
    const post = await posted;
    expect(pathOf(post)).toBe('/notes');
    expect(post.headers()['strata-action']).toBe(actionId);
    expect(post.postDataJSON()).toEqual({ author: 'Linus', text });

    // The action redirects to the new note's page, without a reload.
    const id = countBefore + 1;
    await page.waitForSelector(`h1:has-text("Note ${id}")`, { timeout: 10_000 });
    expect(page.url()).toBe(url(`/notes/${id}`));
    expect(await page.locator('article.note-detail blockquote').textContent()).toBe(text);
    expect(await page.locator('article.note-detail .author').textContent()).toBe('Linus');
    expect(await marker(page)).toBe('same document');

    const saved = await suite.stack().savedNotes();
    expect(saved).toHaveLength(id);
    expect(saved.at(-1)).toMatchObject({ id, author: 'Linus', text });

    // The action dropped the list's cached answer ("notes" tag): it is asked for again (by the
    // detail page's prefetch or the click) and shows the new note first.
    await page.click('article.note-detail a:has-text("All notes")');
    await page.waitForSelector('h1:has-text("Guestbook")');
    await expect
      .poll(() => page.locator('ul.notes li.note a').first().textContent(), { timeout: 10_000 })
      .toBe(text);
    expect(await page.locator('ul.notes li.note').count()).toBe(id);
    expect(
      requests.all
        .slice(requests.all.indexOf(post))
        .filter((r) => isPayload(r) && pathOf(r) === '/notes'),
    ).not.toEqual([]);
    expect(requests.documents()).toEqual(['GET /notes']);
    expect(await marker(page)).toBe('same document');
    expect(problems).toEqual([]);
    await page.close();
  });

  // The action revalidates "notes", which the /notes section layout's count carries, and
  // redirects to the new note: the section layout, shared with the page on screen, must come
  // again rather than be kept.
  it('updates the section’s note count after the action (the kept layout loads again)', async () => {
    const { page } = await openPage(suite.browser());
    await load(page, url('/notes'));
    const id = (await suite.stack().savedNotes()).length + 1;
    await page.fill('form.note-form input[name="author"]', 'Grace');
    await page.fill('form.note-form textarea[name="text"]', `Counted? ${Date.now()}`);
    await page.click('form.note-form button[type="submit"]');
    await page.waitForSelector(`h1:has-text("Note ${id}")`, { timeout: 10_000 });
    expect(await marker(page)).toBe('same document');
    try {
      await expect
        .poll(() => page.locator('strong.note-count').textContent(), { timeout: 3000 })
        .toBe(String(id));
    } finally {
      await page.close();
    }
  });

  it('shows the server’s field errors in place for an invalid note, and saves nothing', async () => {
    const { page, problems } = await openPage(suite.browser());
    const requests = recordRequests(page);
    await load(page, url('/notes'));
    const fileBefore = readFileSync(suite.stack().notesFile, 'utf8');

    // Passes the browser's `required` check; the server trims it to nothing.
    await page.fill('form.note-form input[name="author"]', '   ');
    await page.fill('form.note-form textarea[name="text"]', 'A note without a name');
    const answered = page.waitForResponse((r) => r.request().method() === 'POST');
    await page.click('form.note-form button[type="submit"]');
    await answered;
    await page.waitForSelector('form.note-form .field-error:has-text("Enter your name")', {
      timeout: 10_000,
    });

    expect(await page.locator('form.note-form .field-error').allTextContents()).toEqual([
      'Enter your name',
    ]);
    expect(page.url()).toBe(url('/notes'));
    expect(requests.documents()).toEqual(['GET /notes']);
    expect(await marker(page)).toBe('same document');
    expect(readFileSync(suite.stack().notesFile, 'utf8')).toBe(fileBefore);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the application-error screen', () => {
  /** The digests the render service logged for the drill's failure. */
  const loggedDigests = () =>
    suite
      .stack()
      .render.output()
      .split('\n')
      .filter((line) => line.includes(DRILL_FAILURE))
      .map((line) => (JSON.parse(line) as { digest?: string }).digest);

  it('answers a cold load of /notes/broken with 500 and the error screen, digest but no message', async () => {
    const { page } = await openPage(suite.browser());
    const response = await page.goto(url('/notes/broken'));
    expect(response?.status()).toBe(500);
    const html = (await response?.text()) ?? '';
    expect(html).not.toContain(DRILL_FAILURE);
    expect(html).not.toContain('Deliberate failure');
    const body = (await page.textContent('body')) ?? '';
    expect(body).toContain(SERVER_ERROR_TEXT);
    const digest = /Digest: ([0-9a-f]{10})/.exec(body)?.[1];
    expect(digest).toBeDefined();
    expect(body).toMatch(/Reference: [0-9a-f]{32}/);
    expect(await page.content()).not.toContain('Deliberate failure');
    // The digest is the one the server logged with the real message: operators can find it.
    await expect.poll(loggedDigests, { timeout: 10_000 }).toContain(digest);
    await page.close();
  });

  it('shows it after a client navigation to /notes/broken, without the message', async () => {
    const { page } = await openPage(suite.browser());
    const answers: Promise<string>[] = [];
    page.on('response', (response) => {
      if (pathOf(response.request()) === '/notes/broken')
        answers.push(response.text().catch(() => ''));
    });
    await load(page, url('/notes'));
    await navigate(page, '/notes/broken');
    await page.waitForSelector(`text=${SERVER_ERROR_TEXT}`, { timeout: 10_000 });
    expect(page.url()).toBe(url('/notes/broken'));
    const body = (await page.textContent('body')) ?? '';
    const digest = /Digest: ([0-9a-f]{10})/.exec(body)?.[1];
    expect(digest).toBeDefined();
    expect(await page.content()).not.toContain('Deliberate failure');
    // Shown in place, under the app's layouts: the document was kept.
    expect(await marker(page)).toBe('same document');
    expect(await page.locator('header.masthead').count()).toBe(1);
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of await Promise.all(answers)) expect(answer).not.toContain(DRILL_FAILURE);
    await expect.poll(loggedDigests, { timeout: 10_000 }).toContain(digest);
    await page.close();
  });
});
