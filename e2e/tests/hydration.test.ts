/**
 * Pages rendered by the render service hydrate in a real browser without mismatches, and
 * streamed parts (loading views, deferred data) complete in place.
 */
import { describe, expect, it } from 'vitest';
import { isHydrated, openPage } from '../harness/browser.js';
import { useStackAndBrowser } from '../harness/suite.js';

const suite = useStackAndBrowser();

describe('hydration', () => {
  it.each([
    '/bench/items',
    '/bench/items/42',
    '/',
    '/items?category=cat-2',
    '/items/5',
    '/account',
  ])('hydrates %s without errors', async (path) => {
    const { page, problems } = await openPage(suite.browser());
    await page.goto(`${suite.stack().renderUrl}${path}`);
    await page.waitForFunction(() =>
      Object.keys(document).some((key) => key.startsWith('__reactContainer$')),
    );
    // Give React time to report a mismatch (it does so asynchronously as a recoverable error).
    await page.waitForTimeout(300);
    expect(await isHydrated(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('serves the hashed client bundle with immutable caching', async () => {
    const html = await (await fetch(`${suite.stack().renderUrl}/bench/items`)).text();
    const script = /src="(\/assets\/client-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${suite.stack().renderUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('shows the slow page’s loading view first, then its content and deferred part, and hydrates', async () => {
    const { page, problems } = await openPage(suite.browser());
    await page.goto(`${suite.stack().renderUrl}/slow`, { waitUntil: 'commit' });
    await page.waitForSelector('p.loading');
    await page.waitForSelector('p.headline', { timeout: 10_000 });
    await page.waitForSelector('ul.more', { timeout: 10_000 });
    expect(await page.locator('p.loading').count()).toBe(0);
    await page.waitForFunction(() =>
      Object.keys(document).some((key) => key.startsWith('__reactContainer$')),
    );
    await page.waitForTimeout(300);
    expect(problems).toEqual([]);
    await page.close();
  });
});
