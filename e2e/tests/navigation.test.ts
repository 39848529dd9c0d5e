/**
 * Client navigation in a real browser against the real render and data services: soft
 * navigation keeps the document (a window marker survives), back/forward restore without
 * refetching, and the full-load triggers reload the document.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../harness/browser.js';
import { useStackAndBrowser } from '../harness/suite.js';

const suite = useStackAndBrowser();

async function ready(page: Page, path: string): Promise<void> {
  await page.goto(`${suite.stack().renderUrl}${path}`);
  await page.waitForFunction(
    () => (window as unknown as { __strata_router?: unknown }).__strata_router !== undefined,
  );
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
}

/** /bench/items/1, once its viewport prefetch of /bench/items has arrived in full. */
async function readyWithListPrefetched(page: Page): Promise<void> {
  const prefetched = page.waitForResponse(
    (r) =>
      !!r.request().headers()['strata-prefetch'] && new URL(r.url()).pathname === '/bench/items',
  );
  await ready(page, '/bench/items/1');
  await (await prefetched).finished();
}

function payloadRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.headers()['strata-payload'] === '1') seen.push(request);
  });
  return seen;
}

const marker = (page: Page) =>
  page.evaluate(() => (window as unknown as { marker?: string }).marker);

describe('client navigation', () => {
  it('navigates on click without reloading the document, sending only what differs', async () => {
    const { page, problems } = await openPage(suite.browser());
    const requests = payloadRequests(page);
    await ready(page, '/bench/items/1');
    await page.click('a[href="/bench/items"]:has-text("Back to items")');
    await page.waitForSelector('h1:has-text("Items")');
    expect(await marker(page)).toBe('same document');
    expect(page.url()).toBe(`${suite.stack().renderUrl}/bench/items`);
    expect(await page.locator('ul.items li').count()).toBe(100);
    // Viewport prefetch or the click itself fetched the list, against the tree the page shows.
    const forList = requests.filter((r) => new URL(r.url()).pathname === '/bench/items');
    expect(forList.length).toBeGreaterThan(0);
    for (const request of forList)
      expect(request.headers()['strata-tree']).toBe(
        '1;bench-root/bench-section/bench-item(p.id=1)',
      );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('renders a hovered, prefetched link’s page hidden ahead of the click, then only reveals it', async () => {
    const { page, problems } = await openPage(suite.browser());
    await readyWithListPrefetched(page);
    const back = 'article a[href="/bench/items"]';
    await page.hover(back);
    // The list is in the document, hidden, before the click; mark its heading.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('h1')].some((h) => h.textContent === 'Items'),
    );
    const before = await page.evaluate(() => {
      const headings = [...document.querySelectorAll('h1')];
      const ahead = headings.find((h) => h.textContent === 'Items') as HTMLElement & {
        ahead?: boolean;
      };
      ahead.ahead = true;
      return headings.map((h) => [h.textContent, h.checkVisibility()]);
    });
    expect(before).toEqual([
      ['Item 1', true],
      ['Items', false],
    ]);
    const requests = payloadRequests(page);

    await page.click(back);
    await page.waitForSelector('h1:has-text("Items")');

    const after = await page.evaluate(() =>
      [...document.querySelectorAll('h1')].map((h) => [
        h.textContent,
        h.checkVisibility(),
        (h as HTMLElement & { ahead?: boolean }).ahead === true,
      ]),
    );
    expect(after).toEqual([['Items', true, true]]);
    expect(page.url()).toBe(`${suite.stack().renderUrl}/bench/items`);
    expect(await marker(page)).toBe('same document');
    expect(requests.filter((r) => !r.headers()['strata-prefetch'])).toEqual([]);
    // The revealed page's effects run: its links in the viewport prefetch their pages.
    await expect
      .poll(
        () =>
          requests.filter((r) => /^\/bench\/items\/\d+$/.test(new URL(r.url()).pathname)).length,
      )
      .toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('renders the page ahead for a link focused from the keyboard, and Enter reveals it', async () => {
    const { page, problems } = await openPage(suite.browser());
    await readyWithListPrefetched(page);
    await page.focus('article a[href="/bench/items"]');
    await page.waitForFunction(() => document.querySelectorAll('h1').length === 2);
    const requests = payloadRequests(page);

    await page.keyboard.press('Enter');
    await page.waitForSelector('h1:has-text("Items")');

    expect(await page.locator('h1').allTextContents()).toEqual(['Items']);
    expect(await marker(page)).toBe('same document');
    expect(requests.filter((r) => !r.headers()['strata-prefetch'])).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('goes back and forward without asking the server again', async () => {
    const { page, problems } = await openPage(suite.browser());
    await ready(page, '/bench/items');
    await page.click('a[href="/bench/items/3"]');
    await page.waitForSelector('h1:has-text("Item 3")');
    const requests = payloadRequests(page);
    await page.goBack();
    await page.waitForSelector('h1:has-text("Items")');
    await page.goForward();
    await page.waitForSelector('h1:has-text("Item 3")');
    expect(await marker(page)).toBe('same document');
    expect(requests.filter((r) => !r.headers()['strata-prefetch'])).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('scrolls to the top on a new page and restores the position on back', async () => {
    const { page } = await openPage(suite.browser());
    await page.setViewportSize({ width: 800, height: 600 });
    await ready(page, '/bench/items');
    await page.evaluate(() => window.scrollTo(0, 2500));
    await page.click('a[href="/bench/items/60"]');
    await page.waitForSelector('h1:has-text("Item 60")');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await page.waitForSelector('h1:has-text("Items")');
    await page.waitForFunction(() => window.scrollY > 2000);
    expect(await marker(page)).toBe('same document');
    await page.close();
  });

  it('loads a new document for another root layout', async () => {
    const { page } = await openPage(suite.browser());
    await ready(page, '/items/4');
    await page.evaluate(() =>
      (
        window as unknown as { __strata_router: { navigate(href: string): void } }
      ).__strata_router.navigate('/account'),
    );
    await page.waitForSelector('body.account');
    expect(await marker(page)).toBeUndefined();
    await page.close();
  });

  it('loads /api as a document, never as a payload', async () => {
    const { page } = await openPage(suite.browser());
    await ready(page, '/');
    const requests = payloadRequests(page);
    await page.evaluate(() =>
      (
        window as unknown as { __strata_router: { navigate(href: string): void } }
      ).__strata_router.navigate('/api/categories'),
    );
    await page.waitForURL(`${suite.stack().renderUrl}/api/categories`);
    expect(requests.filter((r) => r.url().includes('/api/'))).toEqual([]);
    await page.close();
  });

  it('shows the loading view where the new page suspends, then the page', async () => {
    const { page, problems } = await openPage(suite.browser());
    await ready(page, '/');
    await page.click('nav a[href="/slow"]');
    await page.waitForSelector('p.loading');
    await page.waitForSelector('p.headline', { timeout: 10_000 });
    expect(await marker(page)).toBe('same document');
    expect(problems).toEqual([]);
    await page.close();
  });
});
