/**
 * The second app, apps/notes, served by the real render service (RENDER_APP=@strata/app-notes,
 * no data service) in Chromium: its own document shell hydrates, links in view prefetch and
 * their clicks use the prefetched answer, client navigation keeps the document (back/forward
 * too), the streamed stats page shows its loading view, then its totals, then its deferred
 * tally, the add-note action writes NOTES_FILE and refreshes the list without a reload, and a
 * failing loader ends on the runtime's error screen, with a digest and never its message.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHydrated, launchBrowser, openPage } from '../harness/browser.js';
import { startNotesStack, type NotesStack } from '../harness/notes-stack.js';
import { ROOT } from '../harness/processes.js';

let stack: NotesStack | undefined;
let browser: Browser | undefined;
beforeAll(async () => {
  stack = await startNotesStack();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});
const notes = (): NotesStack => {
  if (!stack) throw new Error('notes stack not started');
  return stack;
};
const chromium = (): Browser => {
  if (!browser) throw new Error('browser not started');
  return browser;
};
const url = (path: string) => `${notes().renderUrl}${path}`;

/** What the notes app's loader throws on /notes/broken (apps/notes error-drill-page.tsx). */
const DRILL_FAILURE = 'Deliberate failure (NOTES_ERROR_DRILL)';
const SERVER_ERROR_TEXT =
  'Application error: a server-side exception has occurred (see the server logs for more information).';

/** The client bundle each app's document must load (written by the render build). */
const bundleOf = (app: string) =>
  (
    JSON.parse(
      readFileSync(`${ROOT}services/render/dist/public/${app}/assets/manifest.json`, 'utf8'),
    ) as { client: string }
  ).client;

const isPayload = (request: Request) => request.headers()['strata-payload'] === '1';
const isPrefetch = (request: Request) =>
  isPayload(request) && request.headers()['strata-prefetch'] !== undefined;
const pathOf = (request: Request) => new URL(request.url()).pathname;
/** A request, readably, for failure messages. */
const describeRequest = (request: Request) =>
  `${request.method()} ${pathOf(request)}${isPrefetch(request) ? ' (prefetch)' : isPayload(request) ? ' (payload)' : ''}`;

/** Every request the page makes from now on, and the main-frame document loads among them. */
function recordRequests(page: Page): { all: Request[]; documents: () => string[] } {
  const all: Request[] = [];
  page.on('request', (request) => all.push(request));
  return {
    all,
    documents: () =>
      all
        .filter((r) => r.isNavigationRequest() && r.frame() === page.mainFrame())
        .map(describeRequest),
  };
}

const routerReady = (page: Page) =>
  page.waitForFunction(
    () => (window as unknown as { __strata_router?: unknown }).__strata_router !== undefined,
  );
const setMarker = (page: Page) =>
  page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
const marker = (page: Page) =>
  page.evaluate(() => (window as unknown as { marker?: string }).marker);
const navigate = (page: Page, href: string) =>
  page.evaluate(
    (target) =>
      (
        window as unknown as { __strata_router: { navigate(h: string): void } }
      ).__strata_router.navigate(target),
    href,
  );
const h1s = (page: Page) => page.locator('h1').allTextContents();

/** Opens `path` cold, waits for the router, and marks the window. */
async function load(page: Page, path: string): Promise<void> {
  await page.goto(url(path));
  await routerReady(page);
  await setMarker(page);
}

describe('the notes app’s document', () => {
  it('is the notes app’s own shell, loads the notes bundle, and hydrates without errors', async () => {
    const { page, problems } = await openPage(chromium());
    const response = await page.goto(url('/notes'));
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Strata Notes');
    expect(await page.locator('header.masthead a.brand').textContent()).toBe('Strata Notes');
    expect(await h1s(page)).toEqual(['Guestbook']);
    expect(await page.locator('ul.notes li.note').count()).toBe(
      (await notes().savedNotes()).length,
    );
    // The notes bundle, never the catalogue's (each app has its own under dist/public).
    const scripts = await page
      .locator('script[src]')
      .evaluateAll((elements) => elements.map((e) => e.getAttribute('src')));
    expect(scripts).toContain(bundleOf('strata-app-notes'));
    expect(scripts).not.toContain(bundleOf('strata-app-catalog'));
    await routerReady(page);
    await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
    // React reports hydration mismatches asynchronously, as recoverable errors.
    await page.waitForTimeout(300);
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each(['/notes/1', '/notes/stats'])('hydrates %s without errors', async (path) => {
    const { page, problems } = await openPage(chromium());
    await page.goto(url(path));
    await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
    await page.waitForTimeout(300);
    expect(await page.title()).toBe('Strata Notes');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('redirects / to the guestbook', async () => {
    const response = await fetch(url('/'), { redirect: 'manual' });
    expect(response.status).toBeGreaterThanOrEqual(300);
    expect(response.status).toBeLessThan(400);
    expect(new URL(response.headers.get('location') ?? '', url('/')).pathname).toBe('/notes');
  });
});

describe('prefetching', () => {
  it('prefetches a note link in view before any click, and the click then uses that answer', async () => {
    const { page, problems } = await openPage(chromium());
    const requests = recordRequests(page);
    const prefetched = page.waitForResponse(
      (r) => isPrefetch(r.request()) && pathOf(r.request()) === '/notes/1',
    );
    await load(page, '/notes');
    await (await prefetched).finished();
    // Nothing was clicked: the only way /notes/1 was asked for is the viewport prefetch.
    const before = requests.all.filter((r) => pathOf(r) === '/notes/1');
    expect(before.length).toBeGreaterThan(0);
    expect(before.every(isPrefetch)).toBe(true);
    expect(before[0]?.headers()['strata-prefetch']).toBe('auto');
    const seenBeforeClick = requests.all.length;

    await page.click('ul.notes a[href="/notes/1"]');
    await page.waitForSelector('h1:has-text("Note 1")');

    const afterClick = requests.all.slice(seenBeforeClick);
    expect(afterClick.filter((r) => pathOf(r) === '/notes/1').map(describeRequest)).toEqual([]);
    expect(requests.documents()).toEqual(['GET /notes']);
    expect(page.url()).toBe(url('/notes/1'));
    expect(await marker(page)).toBe('same document');
    const seed = (await notes().savedNotes()).find((n) => n.id === 1);
    expect(await page.locator('article.note-detail blockquote').textContent()).toBe(seed?.text);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('client navigation', () => {
  it('moves between list, detail and stats in one document, and back/forward restore', async () => {
    const { page, problems } = await openPage(chromium());
    const requests = recordRequests(page);
    await load(page, '/notes');

    await page.click('ul.notes a[href="/notes/2"]');
    await page.waitForSelector('h1:has-text("Note 2")');
    expect(page.url()).toBe(url('/notes/2'));
    expect(await page.locator('article.note-detail .author').textContent()).toBe('Grace');

    await page.click('article.note-detail a:has-text("All notes")');
    await page.waitForSelector('h1:has-text("Guestbook")');
    expect(page.url()).toBe(url('/notes'));

    await page.click('header.masthead nav a:has-text("Stats")');
    await page.waitForSelector('p.totals', { timeout: 10_000 });
    expect(page.url()).toBe(url('/notes/stats'));
    expect(await h1s(page)).toEqual(['Stats']);

    const beforeHistory = requests.all.length;
    await page.goBack();
    await page.waitForURL(url('/notes'));
    await page.waitForSelector('h1:has-text("Guestbook")');
    expect(await h1s(page)).toEqual(['Guestbook']);
    await page.goBack();
    await page.waitForURL(url('/notes/2'));
    await page.waitForSelector('h1:has-text("Note 2")');
    await page.goForward();
    await page.waitForURL(url('/notes'));
    await page.waitForSelector('h1:has-text("Guestbook")');
    await page.goForward();
    await page.waitForURL(url('/notes/stats'));
    await page.waitForSelector('p.totals');
    expect(await h1s(page)).toEqual(['Stats']);

    // Kept pages come back from memory: no page was asked for again (prefetches aside).
    expect(
      requests.all
        .slice(beforeHistory)
        .filter((r) => isPayload(r) && !isPrefetch(r))
        .map(describeRequest),
    ).toEqual([]);
    expect(requests.documents()).toEqual(['GET /notes']);
    expect(await marker(page)).toBe('same document');
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** Which parts of the stats page are visible, each time that changes (from document start). */
const STATS_PARTS = {
  loading: 'p.stats-loading',
  totals: 'p.totals',
  tallying: 'p.busiest-loading',
  tally: 'ol.busiest',
} as const;

async function watchStatsParts(page: Page): Promise<void> {
  await page.addInitScript((parts: Record<string, string>) => {
    const timeline: { at: number; visible: string[] }[] = [];
    (window as unknown as { statsTimeline: typeof timeline }).statsTimeline = timeline;
    const record = () => {
      const visible = Object.entries(parts)
        .filter(([, selector]) =>
          [...document.querySelectorAll(selector)].some((e) => e.checkVisibility()),
        )
        .map(([name]) => name);
      const last = timeline.at(-1)?.visible;
      if (last?.join() !== visible.join()) timeline.push({ at: performance.now(), visible });
    };
    new MutationObserver(record).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  }, STATS_PARTS);
}

const statsTimeline = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { statsTimeline: { at: number; visible: string[] }[] }).statsTimeline,
  );

/** The stats page's parts must show one after another: loading view, totals, tally. */
async function expectStreamedInOrder(page: Page): Promise<void> {
  await page.waitForSelector('ol.busiest', { timeout: 10_000 });
  const shown = (await statsTimeline(page)).filter((step) => step.visible.length > 0);
  expect(shown.map((step) => step.visible)).toEqual([
    ['loading'],
    ['totals', 'tallying'],
    ['totals', 'tally'],
  ]);
  // NOTES_STATS_DELAY is 800 ms per part: each view stays up a while, not for one frame
  // (a loose bound: a busy browser may show a view late, never the next one early).
  const [loading, totals, tally] = shown.map((step) => step.at) as [number, number, number];
  expect(totals - loading).toBeGreaterThan(250);
  expect(tally - totals).toBeGreaterThan(250);
}

/** The figures shown are those of NOTES_FILE (counted here independently). */
async function expectStatsOf(page: Page): Promise<void> {
  const saved = await notes().savedNotes();
  const counts = new Map<string, number>();
  for (const note of saved) counts.set(note.author, (counts.get(note.author) ?? 0) + 1);
  expect(await page.locator('p.totals').textContent()).toContain(
    `${saved.length} notes by ${counts.size} authors.`,
  );
  const busiest = [...counts]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, 5)
    .map(([author, count]) => `${author}: ${count}`);
  expect(await page.locator('ol.busiest li').allTextContents()).toEqual(busiest);
}

describe('the streamed stats page', () => {
  it('on a cold load: loading view, then totals with the tally pending, then the tally', async () => {
    const { page, problems } = await openPage(chromium());
    await watchStatsParts(page);
    await page.goto(url('/notes/stats'), { waitUntil: 'commit' });
    await expectStreamedInOrder(page);
    await expectStatsOf(page);
    await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
    await page.waitForTimeout(300);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('on a client navigation: the same three steps, in the same document', async () => {
    const { page, problems } = await openPage(chromium());
    await watchStatsParts(page);
    const requests = recordRequests(page);
    await load(page, '/notes/1');
    await page.click('header.masthead nav a:has-text("Stats")');
    await expectStreamedInOrder(page);
    await expectStatsOf(page);
    expect(page.url()).toBe(url('/notes/stats'));
    expect(requests.documents()).toEqual(['GET /notes/1']);
    expect(await marker(page)).toBe('same document');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the add-note action', () => {
  it('posts the action from the enhanced form, shows the new note, writes NOTES_FILE and refreshes the list', async () => {
    const { page, problems } = await openPage(chromium());
    const requests = recordRequests(page);
    await load(page, '/notes');
    const countBefore = (await notes().savedNotes()).length;
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

    const saved = await notes().savedNotes();
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
    const { page } = await openPage(chromium());
    await load(page, '/notes');
    const id = (await notes().savedNotes()).length + 1;
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
    const { page, problems } = await openPage(chromium());
    const requests = recordRequests(page);
    await load(page, '/notes');
    const fileBefore = readFileSync(notes().notesFile, 'utf8');

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
    expect(readFileSync(notes().notesFile, 'utf8')).toBe(fileBefore);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the application-error screen', () => {
  /** The digests the render service logged for the drill's failure. */
  const loggedDigests = () =>
    notes()
      .render.output()
      .split('\n')
      .filter((line) => line.includes(DRILL_FAILURE))
      .map((line) => (JSON.parse(line) as { digest?: string }).digest);

  it('answers a cold load of /notes/broken with 500 and the error screen, digest but no message', async () => {
    const { page } = await openPage(chromium());
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
    const { page } = await openPage(chromium());
    const answers: Promise<string>[] = [];
    page.on('response', (response) => {
      if (pathOf(response.request()) === '/notes/broken')
        answers.push(response.text().catch(() => ''));
    });
    await load(page, '/notes');
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
