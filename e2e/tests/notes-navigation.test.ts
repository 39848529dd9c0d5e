/**
 * Navigating the notes app (apps/notes on the real render service) in Chromium: links in view
 * prefetch and their clicks use the prefetched answer, client navigation keeps the document
 * (back/forward too), and the streamed stats page shows its loading view, then its totals, then
 * its deferred tally, on a cold load and on a client navigation alike.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isHydrated, openPage } from '../harness/browser.js';
import {
  describeRequest,
  h1s,
  isPayload,
  isPrefetch,
  load,
  marker,
  pathOf,
  recordRequests,
} from '../harness/router-page.js';
import { useNotesStackAndBrowser } from '../harness/suite.js';

const suite = useNotesStackAndBrowser();
const url = (path: string) => `${suite.stack().renderUrl}${path}`;

describe('prefetching', () => {
  it('prefetches a note link in view before any click, and the click then uses that answer', async () => {
    const { page, problems } = await openPage(suite.browser());
    const requests = recordRequests(page);
    const prefetched = page.waitForResponse(
      (r) => isPrefetch(r.request()) && pathOf(r.request()) === '/notes/1',
    );
    await load(page, url('/notes'));
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
    const seed = (await suite.stack().savedNotes()).find((n) => n.id === 1);
    expect(await page.locator('article.note-detail blockquote').textContent()).toBe(seed?.text);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('client navigation', () => {
  it('moves between list, detail and stats in one document, and back/forward restore', async () => {
    const { page, problems } = await openPage(suite.browser());
    const requests = recordRequests(page);
    await load(page, url('/notes'));

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
  const saved = await suite.stack().savedNotes();
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
    const { page, problems } = await openPage(suite.browser());
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
    const { page, problems } = await openPage(suite.browser());
    await watchStatsParts(page);
    const requests = recordRequests(page);
    await load(page, url('/notes/1'));
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
